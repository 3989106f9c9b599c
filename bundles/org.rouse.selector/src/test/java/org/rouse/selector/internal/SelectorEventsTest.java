package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;

/** org.rouse.SlowUpcall and org.rouse.EngineSwap (selector) in a live JFR recording, over real loopback sockets. */
class SelectorEventsTest {

    private final Rig rig = new Rig();
    private final RecordingStream stream = new RecordingStream();
    private final List<RecordedEvent> events = new CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        stream.close();
        rig.close();
    }

    private void record(String event, String... setting) {
        var enabled = stream.enable(event);
        if (setting.length == 2) {
            enabled.with(setting[0], setting[1]);
        }
        stream.onEvent(event, events::add);
    }

    private RecordedEvent await(String event, java.util.function.Predicate<RecordedEvent> matching) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> events.stream()
                                .filter(e -> e.getEventType().getName().equals(event))
                                .filter(matching)
                                .findFirst()
                                .orElse(null),
                        e -> e != null);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSlowHandlerIsRecordedAndAChannelMovedByASwapIsCounted() throws Exception {
        record("org.rouse.SlowUpcall", "durationThreshold", "30 ms");
        record("org.rouse.EngineSwap");
        stream.startAsync();
        NioSelectorEngine a = rig.engine(Rig.settings(600_000, true));
        NioSelectorEngine b = rig.engine(Rig.settings(600_000, true));
        rig.core.swapTo(a);
        BundleSelectorView view = rig.view("events.bundle", 100);
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> (registration, readyOps) -> {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            if (connection.read(buffer) < 0) {
                registration.close();
                return;
            }
            if (buffer.get(0) == 'S') { // a slow request: the handler works 80 ms before answering
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(80);
                for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            }
            connection.write(buffer.flip());
        });
        SocketChannel client = rig.connect(server);
        assertEquals('F', echo(client, (byte) 'F'));
        assertEquals('S', echo(client, (byte) 'S'));

        RecordedEvent slow = await("org.rouse.SlowUpcall", e -> "events.bundle".equals(e.getString("bundle")));
        long took = slow.getDuration("upcallDuration").toNanos();
        assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(80), "upcall took " + took);
        assertTrue(slow.getString("channel").contains("127.0.0.1"), slow.getString("channel"));
        // the accept and the fast echo stay under the threshold unless the machine holds them up that long (the
        // first upcalls run cold code): what the threshold guarantees is that no shorter upcall is recorded
        events.stream()
                .filter(e -> e.getEventType().getName().equals("org.rouse.SlowUpcall"))
                .forEach(e -> assertTrue(
                        e.getDuration("upcallDuration").toNanos() >= TimeUnit.MILLISECONDS.toNanos(30),
                        "an upcall under the threshold was recorded: " + e));

        rig.core.swapTo(b); // the server and the accepted connection move
        RecordedEvent swap = await("org.rouse.EngineSwap", e -> b.name().equals(e.getString("to")));
        assertEquals("selector", swap.getString("service"));
        assertEquals(a.name(), swap.getString("from"));
        assertEquals(2L, swap.getLong("moved"));
        assertTrue(swap.getDuration("pause").toNanos() > 0);
        assertEquals('F', echo(client, (byte) 'F'), "the channel works on the new engine");
    }

    private static char echo(SocketChannel client, byte first) throws Exception {
        ByteBuffer out = ByteBuffer.allocate(1).put(first).flip();
        while (out.hasRemaining()) {
            client.write(out);
        }
        ByteBuffer in = ByteBuffer.allocate(1);
        while (in.hasRemaining()) {
            if (client.read(in) < 0) {
                throw new java.io.EOFException();
            }
        }
        return (char) in.get(0);
    }
}
