package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;

/** An engine with several select loops: channels spread across them, and swaps between loop counts. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MultiLoopTest {

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    private NioSelectorEngine engine(int loops) {
        return rig.engine(Rig.settings(600_000, true).withLoops(loops));
    }

    @Test
    void channelsGoToTheLeastLoadedLoopAndEachLoopServesItsOwn() throws Exception {
        NioSelectorEngine engine = engine(3);
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view();
        Set<String> loopThreads = ConcurrentHashMap.newKeySet();
        CountDownLatch served = new CountDownLatch(6);
        List<Pipe> pipes = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Pipe pipe = Pipe.open();
            pipes.add(pipe);
            pipe.source().configureBlocking(false);
            view.register(
                    pipe.source(),
                    SelectionKey.OP_READ,
                    (registration, ops) -> {
                        ((Pipe.SourceChannel) registration.channel()).read(ByteBuffer.allocate(16));
                        loopThreads.add(Thread.currentThread().getName());
                        served.countDown();
                    },
                    Dispatch.INLINE);
        }

        assertArrayEquals(new int[] {2, 2, 2}, engine.channelsPerLoop());
        for (Pipe pipe : pipes) {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        }
        served.await();
        assertEquals(Set.of("rouse-selector-loop-0", "rouse-selector-loop-1", "rouse-selector-loop-2"), loopThreads);
        assertEquals(3L, engine.counters().get("loops"));
        for (Pipe pipe : pipes) {
            pipe.sink().close();
            pipe.source().close();
        }
    }

    @Test
    void aCancelledChannelFreesItsPlaceOnItsLoop() throws Exception {
        NioSelectorEngine engine = engine(2);
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view();
        List<ChannelRegistration> registrations = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            registrations.add(view.register(rig.idleChannel(), SelectionKey.OP_READ, (r, ops) -> {}));
        }
        assertArrayEquals(new int[] {2, 2}, engine.channelsPerLoop());

        registrations.get(0).cancel(); // on loop 0 (first of the alternation)
        registrations.get(2).cancel(); // on loop 0 as well
        assertArrayEquals(new int[] {0, 2}, engine.channelsPerLoop());
        view.register(rig.idleChannel(), SelectionKey.OP_READ, (r, ops) -> {});
        assertArrayEquals(new int[] {1, 2}, engine.channelsPerLoop());
    }

    @Test
    void connectionsSurviveSwapsBetweenLoopCountsUnderTraffic() throws Exception {
        rig.core.swapTo(engine(1));
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
        int connections = 16;
        List<SocketChannel> clients = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            clients.add(rig.connect(server));
        }
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService callers = Executors.newFixedThreadPool(connections);
        try {
            List<Future<Long>> calls = new ArrayList<>();
            for (SocketChannel client : clients) {
                calls.add(callers.submit(() -> {
                    long made = 0;
                    while (!stop.get() || made < 50) {
                        if (Rig.call(client, made) != made) {
                            throw new AssertionError("wrong echo on " + client);
                        }
                        made++;
                    }
                    return made;
                }));
            }
            NioSelectorEngine four = engine(4);
            rig.core.swapTo(four);
            int[] spread = four.channelsPerLoop();
            assertEquals(connections + 1, spread[0] + spread[1] + spread[2] + spread[3], "every channel moved");
            for (int count : spread) {
                assertTrue(count == 4 || count == 5, "spread evenly: " + java.util.Arrays.toString(spread));
            }
            rig.core.swapTo(engine(2));
            stop.set(true);
            for (Future<Long> call : calls) {
                assertTrue(call.get() >= 50);
            }
        } finally {
            stop.set(true);
            callers.shutdownNow();
        }
        Map<String, Long> counters = ((NioSelectorEngine) rig.core.active()).counters();
        assertEquals(2L, counters.get("loops"));
        assertEquals(connections + 1L, counters.get("channels"));
    }
}
