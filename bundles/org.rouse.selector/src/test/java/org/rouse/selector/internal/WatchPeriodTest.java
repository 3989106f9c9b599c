package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;

/**
 * The post-upcall watch period (omniORB's connectionWatchPeriod): the worker that answered a call runs the next one
 * itself when it arrives within the period, and hands the channel back to the loop otherwise. Every engine here has
 * a 10-minute select timeout, so a hand-back that failed to re-arm and wake the loop would hang the test.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WatchPeriodTest {

    private final Rig rig = new Rig();
    private final List<CountingEcho> handlers = new CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    private NioSelectorEngine engineWatching(long micros) {
        // the watch's mechanics after every upcall; AdaptiveWatchTest covers which upcalls the default watches after
        NioSelectorEngine engine = rig.engine(Rig.poolPathSettings(600_000, true)
                .withWatchPeriodMicros(micros)
                .withWatchAdaptive(false));
        rig.core.swapTo(engine);
        return engine;
    }

    private ServerSocketChannel echoServer(BundleSelectorView view) throws IOException {
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> {
            CountingEcho echo = new CountingEcho();
            handlers.add(echo);
            return echo;
        });
        return server;
    }

    private static long counter(NioSelectorEngine engine, String name) {
        return engine.counters().get(name);
    }

    @Test
    void theWorkerThatAnsweredACallServesTheNextOneItself() throws Exception {
        NioSelectorEngine engine = engineWatching(100_000); // 100 ms: the blocking watch
        BundleSelectorView view = rig.view();
        SocketChannel client = rig.connect(echoServer(view));

        for (long i = 0; i < 200; i++) {
            assertEquals(i, Rig.call(client, i));
        }

        long hits = counter(engine, "watch.hits");
        assertTrue(hits >= 100, "most calls were found by the watching worker: " + hits + " of 199");
        assertTrue(
                counter(engine, "rearm.count") < 100,
                "a watched call needs no re-arm through the loop: " + counter(engine, "rearm.count"));
    }

    @Test
    void aWorkerNeverWatchesWhenItIsTheLastOneOtherChannelsCouldGet() throws Exception {
        NioSelectorEngine engine =
                rig.engine(Rig.poolPathSettings(600_000, true) // the pool's rule: no loop hand-over, every upcall on it
                        .withPool(1, 1, 60)
                        .withWatchPeriodMicros(500_000)
                        .withWatchAdaptive(false)
                        .withLoopHandover(false));
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = echoServer(view);
        SocketChannel first = rig.connect(server);
        SocketChannel second = rig.connect(server);

        for (long i = 0; i < 20; i++) { // alternating: a watch on one would make the other wait half a second
            assertEquals(i, Rig.call(first, i));
            assertEquals(-i, Rig.call(second, -i));
        }

        assertEquals(0L, counter(engine, "watch.hits") + counter(engine, "watch.misses"), "no watch was started");
    }

    @Test
    void belowOneWorkerPerActiveChannelThePoolGrowsRatherThanCuttingAWatchShort() throws Exception {
        // a 20 s watch and a 20 s grace: a call waiting for either would time the test out
        NioSelectorEngine engine = rig.engine(Rig.poolPathSettings(600_000, true)
                .withPool(1, 3, 60)
                .withWatchPeriodMicros(20_000_000)
                .withGrowAfterMicros(20_000_000)
                .withWatchAdaptive(false)
                .withLoopHandover(false)); // the pool's rule: every upcall on it
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = echoServer(view);
        SocketChannel first = rig.connect(server);
        SocketChannel second = rig.connect(server);

        for (long i = 0; i < 10; i++) { // each call finds the worker that answered the other connection watching it
            assertEquals(i, Rig.call(first, i));
            assertEquals(-i, Rig.call(second, -i));
        }

        assertEquals(
                2L,
                counter(engine, "pool.threads.created"),
                "a second worker for the second connection: " + engine.counters());
        assertEquals(0L, counter(engine, "watch.cut.short"), "neither connection's watch was cut short");
        assertTrue(
                counter(engine, "watch.hits") >= 18,
                "every call but each connection's first was served by its watching worker: " + engine.counters());
    }

    @Test
    void aChannelWithNothingToReadIsHandedBackToTheLoop() throws Exception {
        NioSelectorEngine engine = engineWatching(300); // below 1 ms: watched by polling
        BundleSelectorView view = rig.view();
        SocketChannel client = rig.connect(echoServer(view));

        for (long i = 0; i < 5; i++) {
            long missesBefore = counter(engine, "watch.misses");
            assertEquals(i, Rig.call(client, i));
            await().until(() -> counter(engine, "watch.misses") > missesBefore); // the worker gave up watching
        }

        assertTrue(counter(engine, "watch.misses") >= 5);
        assertEquals(0, engine.timedOutSelects(), "each hand-back re-armed the channel and woke the loop");
    }

    @Test
    void aPeerThatClosesWhileWatchedIsSeenAtOnce() throws Exception {
        engineWatching(200_000);
        BundleSelectorView view = rig.view();
        SocketChannel client = rig.connect(echoServer(view));
        assertEquals(7L, Rig.call(client, 7L));

        client.close();

        await().until(() -> handlers.get(0).closed);
        await().until(() -> view.statistics().registrations() == 1); // only the server is left
    }

    @Test
    void watchedUpcallsOfOneChannelNeverOverlapEvenWhenOtherThreadsReArmIt() throws Exception {
        NioSelectorEngine engine = engineWatching(1_000);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = echoServer(view);
        int connections = 8;
        List<SocketChannel> clients = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            clients.add(rig.connect(server));
        }
        for (SocketChannel client : clients) {
            assertEquals(-1L, Rig.call(client, -1L)); // accepted, registered, and its handler has seen it
        }
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService threads = Executors.newFixedThreadPool(connections + 1);
        try {
            Future<?> reArmer = threads.submit(() -> {
                while (!stop.get()) { // a consumer changing interest operations from another thread
                    for (CountingEcho handler : handlers) {
                        handler.registration.interestOps(SelectionKey.OP_READ);
                    }
                }
            });
            List<Future<?>> callers = new ArrayList<>();
            for (SocketChannel client : clients) {
                callers.add(threads.submit(() -> {
                    for (long i = 0; i < 300; i++) { // checked in the callers below
                        assertEquals(i, Rig.call(client, i));
                    }
                    return null;
                }));
            }
            for (Future<?> caller : callers) {
                caller.get();
            }
            stop.set(true);
            reArmer.get();
        } finally {
            stop.set(true);
            threads.shutdownNow();
        }

        for (CountingEcho handler : handlers) {
            assertEquals(0, handler.overlaps.get(), "two upcalls of one channel ran at once");
        }
        assertTrue(counter(engine, "watch.hits") > 0);
    }

    /** Echoes, and counts upcalls of its channel that found another one still running. */
    private static final class CountingEcho extends Rig.Echo {
        private final AtomicInteger running = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        volatile ChannelRegistration registration;

        @Override
        public void onReady(ChannelRegistration registration, int readyOps) throws IOException {
            this.registration = registration;
            if (running.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            try {
                super.onReady(registration, readyOps);
            } finally {
                running.decrementAndGet();
            }
        }
    }
}
