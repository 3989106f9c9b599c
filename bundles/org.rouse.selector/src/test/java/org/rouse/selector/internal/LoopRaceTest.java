package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;

/**
 * Races around the loop: upcalls ending while the loop selects, wakeup coalescing under load, registering from many
 * threads at once, cancel during an upcall, and descriptors after a consumer's view is released. The engine's select
 * timeout is 10 minutes, so a lost wakeup or re-arm shows as a test timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopRaceTest {

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @ParameterizedTest(name = "{0} loop(s), watch {1} µs")
    @CsvSource({"1, 0", "3, 0", "3, 200", "2, 1000"})
    void upcallsEndingWhileTheLoopSelectsAreNeverLostAndWakeupsCoalesce(int loops, long watchMicros) throws Exception {
        NioSelectorEngine engine =
                rig.engine(Rig.poolPathSettings(600_000, true).withLoops(loops).withWatchPeriodMicros(watchMicros));
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
        int clients = 8;
        int calls = 1_500;
        List<SocketChannel> sockets = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            sockets.add(rig.connect(server));
        }
        long cyclesBefore = engine.selectCycles();
        long writtenBefore = engine.wakeupsWritten();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (SocketChannel socket : sockets) {
                done.add(pool.submit(() -> {
                    for (long i = 0; i < calls; i++) {
                        assertEquals(i, Rig.call(socket, i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        // A client has its last reply before its worker ends the upcall: that worker may still be watching (up to
        // the watch period) and re-arms, requesting a wakeup, only afterwards; and each loop may have a wakeup written
        // that its select has not yet returned from. So wait for the last upcall ends, and allow one per loop.
        long upcallEnds = (long) clients * calls;
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            long written = engine.wakeupsWritten() - writtenBefore; // read before the cycles it may run ahead of
            long cycles = engine.selectCycles() - cyclesBefore;
            assertTrue(written <= cycles + loops, "at most one wakeup written per select: " + written + " > " + cycles);
            assertTrue(
                    engine.wakeupsRequested() + engine.counters().get("watch.hits") >= upcallEnds,
                    "every re-arm from a worker requested a wakeup, unless its worker watched for the next call: "
                            + engine.counters());
        });
    }

    @Test
    void registeringFromManyThreadsAtOnceRegistersEveryChannelOnce() throws Exception {
        rig.activeEngine();
        BundleSelectorView view = rig.view();
        int threads = 16;
        int perThread = 16;
        AtomicInteger upcalls = new AtomicInteger();
        Queue<ChannelRegistration> registrations = new ConcurrentLinkedQueue<>();
        Queue<Pipe> pipes = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        Pipe pipe = Pipe.open();
                        pipes.add(pipe);
                        pipe.source().configureBlocking(false);
                        registrations.add(view.register(pipe.source(), SelectionKey.OP_READ, (reg, ops) -> {
                            ((Pipe.SourceChannel) reg.channel()).read(ByteBuffer.allocate(16));
                            upcalls.incrementAndGet();
                        }));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(threads * perThread, view.statistics().registrations());
        for (Pipe pipe : pipes) {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        }
        await().until(() -> upcalls.get() == threads * perThread);
        for (ChannelRegistration registration : registrations) {
            registration.close();
        }
        assertEquals(0, view.statistics().registrations());
        for (Pipe pipe : pipes) {
            assertFalse(pipe.source().isOpen());
            pipe.sink().close();
        }
    }

    @Test
    void cancelDuringAnUpcallLeavesTheChannelOpenAndUnarmed() throws Exception {
        rig.activeEngine();
        BundleSelectorView view = rig.view();
        Pipe pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        CountDownLatch inUpcall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger firstHandlerCalls = new AtomicInteger();
        ChannelRegistration registration = view.register(pipe.source(), SelectionKey.OP_READ, (reg, ops) -> {
            firstHandlerCalls.incrementAndGet();
            inUpcall.countDown();
            release.await();
            ((Pipe.SourceChannel) reg.channel()).read(ByteBuffer.allocate(16));
        });
        pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        assertTrue(inUpcall.await(10, TimeUnit.SECONDS));
        registration.cancel();
        assertFalse(registration.isValid());
        release.countDown();

        // the channel is open and free: another registration gets the next byte, the cancelled handler does not
        CountDownLatch secondGotIt = new CountDownLatch(1);
        await().until(() -> {
            try {
                view.register(pipe.source(), SelectionKey.OP_READ, (reg, ops) -> {
                    ((Pipe.SourceChannel) reg.channel()).read(ByteBuffer.allocate(16));
                    secondGotIt.countDown();
                });
                return true;
            } catch (IllegalArgumentException stillRegistered) {
                return false; // the cancelled upcall has not returned yet
            }
        });
        pipe.sink().write(ByteBuffer.wrap(new byte[] {2}));
        assertTrue(secondGotIt.await(10, TimeUnit.SECONDS));
        assertEquals(1, firstHandlerCalls.get(), "a cancelled registration is never re-armed");
        assertTrue(pipe.source().isOpen());
        pipe.source().close();
        pipe.sink().close();
    }

    @Test
    void releasingAConsumersViewLeaksNoDescriptor() throws Exception {
        rig.activeEngine();
        ServerSocketChannel server = rig.server();
        BundleSelectorView consumer = rig.view("consumer.bundle", 10_000);
        Queue<SocketChannel> accepted = new ConcurrentLinkedQueue<>();
        consumer.accept(server, SelectionKey.OP_READ, connection -> {
            accepted.add(connection);
            return new Rig.Echo();
        });
        List<SocketChannel> clients = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            SocketChannel client = rig.connect(server);
            clients.add(client);
            assertEquals(i, Rig.call(client, i));
        }
        assertEquals(50, accepted.size());
        consumer.release(); // what the front does when the consumer bundle stops
        for (SocketChannel client : clients) {
            assertTrue(Rig.closedByServer(client), "the peer sees the server end closed");
        }
        for (SocketChannel connection : accepted) {
            assertFalse(connection.isOpen(), "a closed channel has given back its descriptor");
        }
        assertFalse(server.isOpen());
        assertEquals(0, consumer.statistics().registrations());
    }
}
