package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The loop's hand-over of the selecting role (loop.handover), on real sockets and threads: the thread that selected a
 * pool upcall runs it while the loop's other thread selects; a handler that blocks there holds up no other
 * connection; no channel ever has two upcalls at once under many connections; with the hand-over off every pool
 * upcall runs on a worker; and a shutdown ends the loop while a handler still blocks on the other thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopHandoverTest {

    private static final String LOOP_THREAD = "rouse-selector-loop-0";

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    private NioSelectorEngine engine(boolean handover) {
        NioSelectorEngine engine =
                rig.engine(Rig.poolPathSettings(600_000, true).withLoopHandover(handover));
        rig.core.swapTo(engine);
        if (handover) { // the loop's second thread parks as the standby once it has started
            Rig.awaitStandbyParked(engine);
        }
        return engine;
    }

    @Test
    void aPoolUpcallRunsOnTheThreadThatSelectedItAndABlockedOneHoldsUpNoOtherConnection() throws Exception {
        NioSelectorEngine engine = engine(true);
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        ServerSocketChannel server = RecordingEcho.server(rig, rig.view(), handlers, release);
        SocketChannel blocked = rig.connect(server);
        SocketChannel other = rig.connect(server);
        ExecutorService client = Executors.newSingleThreadExecutor();
        try {
            Future<Long> blockedCall = client.submit(() -> Rig.call(blocked, RecordingEcho.BLOCK));
            RecordingEcho.awaitBlocking(handlers);
            for (long i = 1; i <= 200; i++) {
                assertEquals(i, Rig.call(other, i), "another connection's call while a handler blocks");
            }
            release.countDown();
            assertEquals(RecordingEcho.BLOCK, blockedCall.get(30, TimeUnit.SECONDS));
        } finally {
            release.countDown();
            client.shutdownNow();
        }
        RecordingEcho blockedHandler = handlers.stream()
                .filter(h -> h.blocking.getCount() == 0)
                .findFirst()
                .orElseThrow();
        assertEquals(Set.of(LOOP_THREAD), blockedHandler.threads, "ran on the loop thread that selected it");
        assertTrue(engine.counters().get("loop.handovers") >= 1, "handovers: " + engine.counters());
    }

    @Test
    void manyConnectionsAreServedInOrderAcrossHandoversWithOneHandlerRunAtATime() throws Exception {
        // every reply must be the request's own echo; the overlap count is what a handler sees (the front's per-channel
        // flag would also turn away a second dispatch from the engine, so this is not the engine's own check)
        NioSelectorEngine engine = engine(true);
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        ServerSocketChannel server = RecordingEcho.server(rig, rig.view(), handlers, new CountDownLatch(0));
        int connections = 16;
        int calls = 300;
        rig.callFromEach(server, connections, calls); // each reply must be its own request's echo
        assertEquals(connections, handlers.size());
        for (RecordingEcho handler : handlers) {
            assertEquals(0, handler.overlaps.get(), "two upcalls of one channel at once");
        }
        assertTrue(engine.counters().get("loop.handovers") > 0, "no call ran on its loop: " + engine.counters());
    }

    @Test
    void withTheHandoverOffEveryPoolUpcallRunsOnAWorker() throws Exception {
        NioSelectorEngine engine = engine(false);
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        SocketChannel client = rig.connect(RecordingEcho.server(rig, rig.view(), handlers, new CountDownLatch(0)));
        for (long i = 1; i <= 50; i++) {
            assertEquals(i, Rig.call(client, i));
        }
        assertEquals(0L, engine.counters().get("loop.handovers"));
        assertTrue(
                handlers.get(0).threads.stream().allMatch(name -> name.startsWith("rouse-selector-worker-")),
                "upcalls ran on " + handlers.get(0).threads);
    }

    @Test
    void aShutdownEndsTheLoopWhileAHandlerStillBlocksOnItsOtherThread() throws Exception {
        NioSelectorEngine engine = engine(true);
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        SocketChannel client = rig.connect(RecordingEcho.server(rig, rig.view(), handlers, release));
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Long> call = caller.submit(() -> Rig.call(client, RecordingEcho.BLOCK));
            RecordingEcho.awaitBlocking(handlers);
            assertTrue(
                    handlers.get(0).threads.contains(LOOP_THREAD), "not run on the loop: " + handlers.get(0).threads);
            rig.core.swapTo(null); // the front lets go of the engine; its channels stay open
            long start = System.nanoTime();
            engine.shutdown();
            assertTrue(
                    System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20),
                    "the shutdown waited for the blocked handler");
            release.countDown();
            call.get(30, TimeUnit.SECONDS); // the handler answers once released: nothing was lost
        } finally {
            release.countDown();
            caller.shutdownNow();
        }
    }

    @Test
    void anInterruptAHandlerLeavesOnALoopThreadDoesNotMakeItSpin() throws Exception {
        NioSelectorEngine engine = engine(true);
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        SocketChannel client = rig.connect(RecordingEcho.server(rig, rig.view(), handlers, new CountDownLatch(0)));
        assertEquals(RecordingEcho.INTERRUPT, Rig.call(client, RecordingEcho.INTERRUPT));
        assertTrue(handlers.get(0).threads.contains(LOOP_THREAD), "not run on the loop: " + handlers.get(0).threads);
        Rig.awaitStandbyParked(engine);
        long cpuBefore = loopThreadsCpuNanos();
        letTimePass(Duration.ofMillis(300)); // a check that nothing happens meanwhile, not a wait for a result
        long spent = loopThreadsCpuNanos() - cpuBefore;
        assertTrue(spent < TimeUnit.MILLISECONDS.toNanos(100), "idle loop threads used " + spent / 1_000_000 + " ms");
        for (long i = 1; i <= 20; i++) {
            assertEquals(i, Rig.call(client, i));
        }
        assertEquals(0L, engine.counters().get("rebuilds"), "no select returned at once because of the interrupt");
    }

    private static long loopThreadsCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(LOOP_THREAD)) {
                total += Math.max(0, threads.getThreadCpuTime(thread.getId()));
            }
        }
        return total;
    }

    private static void letTimePass(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        for (long left = duration.toNanos(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
