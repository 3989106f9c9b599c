package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.selector.ChannelRegistration;

/**
 * The loop's take-over (loop.takeover.after.micros, the default), on real sockets and threads: a pool upcall runs on
 * the loop thread that selected it, with no hand-off and no re-arm through the loop's queue; a handler that blocks
 * there is taken over by the loop's other thread, so other connections wait for about the bound once, and its
 * channel's next upcalls go to the pool; many connections, some blocking now and then, lose no call and never run
 * two upcalls of one channel at once; a cancel inside such an upcall deregisters before it returns; an idle loop's
 * standby waits without a timeout; and a shutdown ends the loop while a handler still blocks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopTakeoverTest {

    private static final String LOOP_THREAD = "rouse-selector-loop-0";

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    /** A take-over after 1 ms, the default: a handler that blocks is taken over (so may a preempted loop thread). */
    private NioSelectorEngine engine() {
        return engine(1_000);
    }

    /**
     * A take-over only after {@code micros}: with a second, a loop thread preempted by a busy host does not trigger
     * one, for the cases that count take-overs or require none.
     */
    private NioSelectorEngine engine(long micros) {
        return rig.activeEngineWithStandby(Rig.settings(600_000, true).withLoopTakeoverAfterMicros(micros));
    }

    @Test
    void aPoolUpcallRunsOnTheLoopThreadWithNoHandOffAndNoQueuedReArm() throws Exception {
        NioSelectorEngine engine = engine(1_000_000);
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        SocketChannel client = rig.connect(RecordingEcho.server(rig, rig.view(), handlers, new CountDownLatch(0)));

        for (long i = 1; i <= 100; i++) {
            assertEquals(i, Rig.call(client, i));
        }

        assertEquals(Set.of(LOOP_THREAD), handlers.get(0).threads, "every call ran on the loop thread");
        assertTrue(engine.counters().get("loop.upcalls") >= 100, "counted: " + engine.counters());
        assertEquals(0L, engine.counters().get("pool.completed"), "nothing went to the pool");
        assertEquals(0L, engine.counters().get("rearm.count"), "every re-arm applied at once, on the loop thread");
        assertEquals(0L, engine.counters().get("loop.takeovers"));
    }

    @Test
    void aHandlerThatBlocksOnTheLoopIsTakenOverOnceAndItsChannelMovesToThePool() throws Exception {
        NioSelectorEngine engine = engine();
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        ServerSocketChannel server = RecordingEcho.server(rig, rig.view(), handlers, release);
        SocketChannel blocked = rig.connect(server);
        SocketChannel other = rig.connect(server);
        ExecutorService client = Executors.newSingleThreadExecutor();
        try {
            Future<Long> blockedCall = client.submit(() -> Rig.call(blocked, RecordingEcho.BLOCK));
            RecordingEcho.awaitBlocking(handlers);
            for (long i = 1; i <= 200; i++) { // the loop's other thread took the selecting over
                assertEquals(i, Rig.call(other, i), "another connection's call while a handler blocks on the loop");
            }
            assertTrue(engine.counters().get("loop.takeovers") >= 1, "taken over: " + engine.counters());
            release.countDown();
            assertEquals(RecordingEcho.BLOCK, blockedCall.get(30, TimeUnit.SECONDS));
            // the reply is written inside the upcall, before the old holder marks its channel for the pool and parks
            // as the standby; until a standby is parked every ready upcall goes to the pool anyway, so only calls
            // made after that show that the channel's mark sends them there
            Rig.awaitStandbyParked(engine);
            for (long i = 1; i <= 5; i++) {
                assertEquals(i, Rig.call(blocked, i), "the blocked connection's later calls");
            }
        } finally {
            release.countDown();
            client.shutdownNow();
        }
        RecordingEcho blockedHandler = handlers.stream()
                .filter(h -> h.blocking.getCount() == 0)
                .findFirst()
                .orElseThrow();
        assertTrue(blockedHandler.threads.contains(LOOP_THREAD), "it blocked on the loop thread");
        assertTrue(
                blockedHandler.threads.stream().anyMatch(name -> name.startsWith("rouse-selector-worker-")),
                "its next calls ran on the pool: " + blockedHandler.threads);
    }

    @Test
    void manyConnectionsWithHandlersThatSometimesBlockLoseNoCallAndNeverOverlap() throws Exception {
        NioSelectorEngine engine = engine();
        List<SlowNowAndThenEcho> handlers = new CopyOnWriteArrayList<>();
        ServerSocketChannel server = rig.server();
        rig.view().accept(server, SelectionKey.OP_READ, connection -> {
            // every 25th request blocks its upcall for 3 ms (a handler doing blocking work)
            SlowNowAndThenEcho echo =
                    new SlowNowAndThenEcho(25, () -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3)));
            handlers.add(echo);
            return echo;
        });
        int connections = 16;
        int calls = 200;
        rig.callFromEach(server, connections, calls); // each reply must be its own request's echo
        assertEquals(connections, handlers.size());
        for (SlowNowAndThenEcho handler : handlers) {
            assertEquals(0, handler.overlaps.get(), "two upcalls of one channel at once");
            assertEquals(calls, handler.calls.get());
        }
        assertTrue(
                engine.counters().get("loop.takeovers") >= 1, "a blocking call was taken over: " + engine.counters());
        assertTrue(engine.counters().get("loop.upcalls") >= connections, "calls ran on the loop: " + engine.counters());
    }

    @Test
    void aCancelFromAnotherThreadWhileAHandlerBlocksOnTheLoopCompletesOnceTheLoopIsTakenOver() throws Exception {
        NioSelectorEngine engine = engine();
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        ServerSocketChannel server = RecordingEcho.server(rig, rig.view(), handlers, release);
        SocketChannel client = rig.connect(server);
        client.write(ByteBuffer.allocate(8).putLong(RecordingEcho.BLOCK).flip());
        try {
            RecordingEcho.awaitBlocking(handlers);
            ChannelRegistration registration = handlers.get(0).registration;
            SocketChannel connection = (SocketChannel) registration.channel();

            // the loop's own thread is in the handler: the flush can only come from the thread that takes it over
            registration.deregister().toCompletableFuture().get(10, TimeUnit.SECONDS);
            connection.configureBlocking(true); // throws if the channel were still registered with a selector

            assertEquals(Set.of(LOOP_THREAD), handlers.get(0).threads, "the handler still blocks on the loop");
            assertEquals(1L, handlers.get(0).inside.get());
            assertTrue(engine.counters().get("loop.takeovers") >= 1, "taken over: " + engine.counters());
        } finally {
            release.countDown();
        }
    }

    @Test
    void anIdleLoopsStandbyWaitsWithoutATimeout() throws Exception {
        engine();
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        SocketChannel client = rig.connect(RecordingEcho.server(rig, rig.view(), handlers, new CountDownLatch(0)));
        for (long i = 1; i <= 20; i++) {
            assertEquals(i, Rig.call(client, i));
        }

        // one loop thread blocks in select, the other parks with no timeout: no wake-ups while nothing happens
        Awaitility.await("the standby parked without a timeout")
                .atMost(Duration.ofSeconds(10))
                .until(() -> loopThreads().stream().anyMatch(t -> t.getState() == Thread.State.WAITING));
        assertTrue(loopThreads().stream().noneMatch(t -> t.getState() == Thread.State.TIMED_WAITING));
    }

    private static List<Thread> loopThreads() {
        List<Thread> loops = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(LOOP_THREAD)) {
                loops.add(thread);
            }
        }
        return loops;
    }

    @Test
    void aShutdownEndsTheLoopWhileAHandlerStillBlocksOnIt() throws Exception {
        // no take-over before the stop (a 600 s bound), and a drain that gives up on the blocked loop after 200 ms:
        // only the standby's take-over at the stop can close the loop's selector while the handler blocks
        NioSelectorEngine engine = rig.activeEngineWithStandby(Rig.settings(600_000, true)
                .withLoopTakeoverAfterMicros(600_000_000L)
                .withLoopWaitTimeoutMs(200));
        List<RecordingEcho> handlers = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        SocketChannel client = rig.connect(RecordingEcho.server(rig, rig.view(), handlers, release));
        ExecutorService caller = Executors.newFixedThreadPool(2);
        try {
            Future<Long> call = caller.submit(() -> Rig.call(client, RecordingEcho.BLOCK));
            RecordingEcho.awaitBlocking(handlers);
            assertEquals(Set.of(LOOP_THREAD), handlers.get(0).threads, "it blocks on the loop thread");
            rig.core.swapTo(null); // the front lets go of the engine; its channels stay open
            long start = System.nanoTime();
            Future<?> shutdown = caller.submit(engine::shutdown); // waits up to 10 s for the blocked handler

            // the standby takes the loop over at the stop and closes its selector while the handler still blocks
            // (without it the selector would close only after the shutdown's wait has interrupted the handler)
            Awaitility.await("the loop's selector closed")
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> !handlers.get(0).registration.channel().isRegistered());
            assertEquals(1, handlers.get(0).inside.get(), "the handler still blocks");
            assertEquals(1L, engine.counters().get("loop.takeovers"));
            release.countDown();
            shutdown.get(30, TimeUnit.SECONDS);
            assertTrue(
                    System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20),
                    "the shutdown waited for the blocked handler");
            assertTrue(
                    loopThreads().stream().noneMatch(t -> t.getState() == Thread.State.TIMED_WAITING),
                    "no loop thread keeps watching");
            call.get(30, TimeUnit.SECONDS); // the handler answers once released: nothing was lost
        } finally {
            release.countDown();
            caller.shutdownNow();
        }
    }

    @Test
    void aSwapAndShutdownFromInsideAnUpcallOnTheLoopDoNotWaitForThatUpcall() throws Exception {
        // no take-over before the stop, so the upcall is on the loop when it asks
        NioSelectorEngine engine = engine(600_000_000L);
        assertEquals(LOOP_THREAD, stopFromInsideAnUpcall(engine));
    }

    @Test
    void aSwapAndShutdownFromInsideAnUpcallOnAWorkerDoNotWaitForThatWorker() throws Exception {
        // the loop hands every pool upcall to a worker (the loop.handover = false path; the same holds for a channel
        // sent to the pool after a take-over)
        NioSelectorEngine engine =
                rig.engine(Rig.poolPathSettings(600_000, true).withLoopHandover(false));
        rig.core.swapTo(engine);
        String thread = stopFromInsideAnUpcall(engine);
        assertTrue(thread.startsWith("rouse-selector-worker"), thread);
    }

    /**
     * A consumer whose handler stops the provider (an operator command served over the connection): the front's swap
     * and the engine's shutdown then run inside the upcall they would otherwise wait for. Checks that both return
     * at once, the reply written after them still arrives, and the loop threads end; returns the upcall's thread.
     */
    private String stopFromInsideAnUpcall(NioSelectorEngine engine) throws Exception {
        AtomicReference<String> upcallThread = new AtomicReference<>();
        AtomicLong stopNanos = new AtomicLong(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ServerSocketChannel server = rig.server();
        rig.view().accept(server, SelectionKey.OP_READ, connection -> (registration, readyOps) -> {
            SocketChannel channel = (SocketChannel) registration.channel();
            ByteBuffer request = ByteBuffer.allocate(8);
            if (channel.read(request) < 0) {
                registration.close();
                return;
            }
            if (upcallThread.compareAndSet(null, Thread.currentThread().getName())) {
                long start = System.nanoTime();
                try {
                    rig.core.swapTo(null); // the front lets go of the engine, as when its provider unregisters
                    engine.shutdown(); // then the provider's deactivate, on the same thread
                } catch (Throwable t) {
                    failure.set(t);
                }
                stopNanos.set(System.nanoTime() - start);
            }
            request.flip();
            while (request.hasRemaining()) {
                channel.write(request); // the channel stays open across both: the reply still goes out
            }
        });
        SocketChannel client = rig.connect(server);

        assertEquals(42L, Rig.call(client, 42L), "the reply written after the stop arrives");
        assertEquals(null, failure.get());
        assertTrue(
                stopNanos.get() < TimeUnit.SECONDS.toNanos(5),
                "neither the swap nor the shutdown waited for the upcall that called them: " + stopNanos.get() + " ns");
        Awaitility.await("both loop threads end once the upcall has returned")
                .atMost(Duration.ofSeconds(10))
                .until(() -> loopThreads().stream().noneMatch(Thread::isAlive));
        assertTrue(!Thread.currentThread().isInterrupted());
        return upcallThread.get();
    }
}
