package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The upcall pool with real threads: hand-off order, growth, backlog, retirement, shutdown and counters. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerPoolTest {

    private static final long LONG_IDLE_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final List<WorkerPool> pools = new ArrayList<>();

    /** Every test ends at a quiescent point: the pool's invariants hold there, and again once it has terminated. */
    @AfterEach
    void tearDown() throws InterruptedException {
        for (WorkerPool pool : pools) {
            pool.checkInvariants();
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "workers ended");
            pool.checkInvariants();
        }
    }

    private WorkerPool pool(int core, int max, int capacity, boolean mostRecentlyIdleFirst, long idleNanos) {
        EngineSettings settings = EngineSettings.DEFAULTS
                .withPool(core, max, 60)
                .withQueueCapacity(capacity)
                .withMostRecentlyIdleFirst(mostRecentlyIdleFirst)
                .withGrowAfterMicros(0); // grow at once: the tests of the grace period set their own
        WorkerPool pool = new WorkerPool(settings, "test-worker-", idleNanos);
        pools.add(pool);
        return pool;
    }

    /**
     * Executes one task per latch, each blocking until its latch opens, and waits until all have started.
     *
     * @return the thread each task runs on, in the order of execute
     */
    private static String[] occupy(WorkerPool pool, CountDownLatch... releases) throws InterruptedException {
        AtomicReferenceArray<String> names = new AtomicReferenceArray<>(releases.length);
        CountDownLatch started = new CountDownLatch(releases.length);
        for (int i = 0; i < releases.length; i++) {
            int index = i;
            pool.execute(() -> {
                names.set(index, Thread.currentThread().getName());
                started.countDown();
                block(releases[index]);
            });
        }
        assertTrue(started.await(10, TimeUnit.SECONDS), "every task started");
        String[] result = new String[releases.length];
        Arrays.setAll(result, names::get);
        return result;
    }

    /** Runs one task and returns the name of the thread it ran on. */
    private static String runOnce(WorkerPool pool) throws InterruptedException {
        AtomicReference<String> name = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            name.set(Thread.currentThread().getName());
            done.countDown();
        });
        assertTrue(done.await(10, TimeUnit.SECONDS), "the task ran");
        return name.get();
    }

    /** Three workers go idle in the order 0, 1, 2 (forced by latches); returns their thread names in that order. */
    private static String[] idleInOrder(WorkerPool pool) throws InterruptedException {
        CountDownLatch[] releases = {new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1)};
        String[] names = occupy(pool, releases);
        for (int i = 0; i < releases.length; i++) {
            releases[i].countDown();
            int idleNow = i + 1;
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.idleThreads() == idleNow);
        }
        return names;
    }

    private static CountDownLatch[] shared(CountDownLatch release, int times) {
        CountDownLatch[] releases = new CountDownLatch[times];
        Arrays.fill(releases, release);
        return releases;
    }

    @ParameterizedTest(name = "most recently idle first: {0}")
    @ValueSource(booleans = {true, false})
    void handsWorkToTheMostRecentlyIdleWorkerFirstOrTheLongestIdleWhenSwitchedOff(boolean mostRecentlyIdleFirst)
            throws InterruptedException {
        WorkerPool pool = pool(3, 3, 10, mostRecentlyIdleFirst, LONG_IDLE_NANOS);
        String[] wentIdle = idleInOrder(pool);

        CountDownLatch release = new CountDownLatch(1);
        String[] ranOn = occupy(pool, shared(release, 3));
        release.countDown();

        String[] expected = mostRecentlyIdleFirst
                ? new String[] {wentIdle[2], wentIdle[1], wentIdle[0]}
                : new String[] {wentIdle[0], wentIdle[1], wentIdle[2]};
        assertArrayEquals(expected, ranOn, "threads in the order they went idle: " + String.join(", ", wentIdle));
        assertEquals(3, pool.threadsCreated(), "no thread started while workers were idle");
    }

    @Test
    void aWarmWorkerServesSequentialUpcallsAlone() throws InterruptedException {
        WorkerPool pool = pool(3, 3, 10, true, LONG_IDLE_NANOS);
        idleInOrder(pool);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            names.add(runOnce(pool));
            // the task ends before its worker is back on the stack: wait for it
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.idleThreads() == 3);
        }
        assertEquals(1, names.stream().distinct().count(), "one-at-a-time upcalls all ran on one thread: " + names);
    }

    @Test
    void growsToTheMaximumBeforeQueueing() throws InterruptedException {
        WorkerPool pool = pool(1, 3, 10, true, LONG_IDLE_NANOS);
        assertEquals(0, pool.threads(), "threads start lazily");
        CountDownLatch release = new CountDownLatch(1);
        occupy(pool, shared(release, 3)); // three upcalls at once with one core thread
        assertEquals(3, pool.threads());
        assertEquals(0, pool.queued());

        CountDownLatch fourth = new CountDownLatch(1);
        pool.execute(fourth::countDown);
        assertEquals(1, pool.queued(), "queued only once the maximum is busy");
        assertEquals(3, pool.threadsCreated());
        pool.checkInvariants(); // an upcall waits, legitimately: no worker is idle

        release.countDown();
        assertTrue(fourth.await(10, TimeUnit.SECONDS), "a finishing worker takes the queued upcall");
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.completed() == 4);
        assertEquals(0, pool.queued());
    }

    @Test
    void queuesThenRejectsNamingBusyThreadsAndQueuedUpcalls() throws InterruptedException {
        WorkerPool pool = pool(0, 2, 2, true, LONG_IDLE_NANOS);
        // Two latches, so that one freed worker drains the backlog alone: with both freed at once the two
        // queued upcalls run in parallel and their order says nothing about the queue's.
        CountDownLatch releaseOne = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        occupy(pool, releaseOne, releaseOther);
        List<String> order = new ArrayList<>();
        CountDownLatch queuedRan = new CountDownLatch(2);
        for (String label : new String[] {"first", "second"}) {
            pool.execute(() -> {
                synchronized (order) {
                    order.add(label);
                }
                queuedRan.countDown();
            });
        }
        assertEquals(2, pool.queued());

        RejectedExecutionException rejected = assertThrows(
                RejectedExecutionException.class,
                () -> pool.execute(() -> {
                    throw new AssertionError("a rejected task ran");
                }));
        assertTrue(
                rejected.getMessage().contains("2 threads busy and 2 upcalls queued"),
                "message names the saturation: " + rejected.getMessage());

        releaseOne.countDown();
        assertTrue(queuedRan.await(10, TimeUnit.SECONDS), "the one freed worker runs the whole backlog");
        synchronized (order) {
            assertEquals(List.of("first", "second"), order, "the backlog is FIFO");
        }
        releaseOther.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.completed() == 4);
        assertEquals(2, pool.threadsCreated());
    }

    @Test
    void workersAboveTheCoreSizeRetireAfterTheIdleTimeoutAndCoreWorkersStay() throws InterruptedException {
        WorkerPool pool = pool(1, 4, 10, true, TimeUnit.MILLISECONDS.toNanos(20));
        CountDownLatch release = new CountDownLatch(1);
        List<String> names = List.of(occupy(pool, shared(release, 4)));
        release.countDown();

        await().atMost(Duration.ofSeconds(10)).until(() -> pool.threadsRetired() == 3);
        assertEquals(1, pool.threads());
        // the three above the core can time out and retire while the fourth has not yet returned from its upcall
        // (a descheduled thread): the kept worker is idle once it is back, not necessarily when the third retires
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.idleThreads() == 1);
        assertEquals(3, pool.threadsRetired(), "the core worker does not retire once idle");
        // the core worker outlives many idle timeouts
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> pool.threads() == 1);

        String ranOn = runOnce(pool);
        assertTrue(names.contains(ranOn), "the kept core worker ran it: " + ranOn + " " + names);
        assertEquals(4, pool.threadsCreated(), "no thread re-created");
    }

    @Test
    void withNoCoreThreadsEveryIdleWorkerRetiresAndTheNextUpcallStartsOne() throws InterruptedException {
        WorkerPool pool = pool(0, 2, 10, true, TimeUnit.MILLISECONDS.toNanos(10));
        assertEquals("test-worker-0", runOnce(pool));
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.threads() == 0);
        assertEquals(1, pool.threadsRetired());

        assertEquals("test-worker-1", runOnce(pool));
        assertEquals(2, pool.threadsCreated());
    }

    @Test
    void shutdownRunsQueuedUpcallsThenEndsEveryWorker() throws InterruptedException {
        WorkerPool pool = pool(2, 2, 10, true, LONG_IDLE_NANOS);
        CountDownLatch release = new CountDownLatch(1);
        occupy(pool, shared(release, 2));
        AtomicInteger queuedRan = new AtomicInteger();
        pool.execute(queuedRan::incrementAndGet);
        pool.execute(queuedRan::incrementAndGet);
        assertEquals(2, pool.queued());

        pool.shutdown();
        assertTrue(pool.isShutdown());
        RejectedExecutionException rejected =
                assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
        assertTrue(rejected.getMessage().contains("shut down"), rejected.getMessage());
        assertFalse(pool.awaitTermination(0, TimeUnit.SECONDS), "upcalls still running");

        release.countDown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(2, queuedRan.get(), "queued upcalls ran after shutdown");
        pool.checkInvariants();
        assertEquals(0, pool.threads());
        assertEquals(2, pool.threadsRetired());
        assertEquals(4, pool.completed());
    }

    @Test
    void shutdownEndsIdleCoreWorkers() throws InterruptedException {
        WorkerPool pool = pool(3, 3, 10, true, LONG_IDLE_NANOS);
        idleInOrder(pool);
        assertEquals(3, pool.threads());
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(0, pool.threads());
        assertEquals(3, pool.threadsRetired());
    }

    @Test
    void shutdownNowInterruptsRunningUpcallsAndDropsQueuedOnes() throws InterruptedException {
        WorkerPool pool = pool(1, 1, 10, true, LONG_IDLE_NANOS);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        AtomicBoolean droppedRan = new AtomicBoolean();
        Runnable queued = () -> droppedRan.set(true);
        pool.execute(queued);
        pool.execute(queued);

        List<Runnable> dropped = pool.shutdownNow();

        assertEquals(2, dropped.size());
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the running upcall was interrupted");
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertFalse(droppedRan.get(), "queued upcalls never ran");
        assertEquals(0, pool.queued());
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    }

    @Test
    void aWorkerThatShutsThePoolDownWaitsForTheOthersOnlyAndIsNotInterrupted() throws InterruptedException {
        // an upcall that stops its own engine: the engine's shutdown calls shutdown, awaitTermination and, when
        // another upcall outlasts the wait, shutdownNow, all on that worker
        WorkerPool pool = pool(2, 2, 10, true, LONG_IDLE_NANOS);
        CountDownLatch otherStarted = new CountDownLatch(1);
        CountDownLatch otherInterrupted = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        pool.execute(() -> {
            otherStarted.countDown();
            try {
                releaseOther.await();
            } catch (InterruptedException e) {
                otherInterrupted.countDown();
            }
        });
        assertTrue(otherStarted.await(10, TimeUnit.SECONDS));
        AtomicBoolean terminatedWhileOtherRan = new AtomicBoolean(true);
        AtomicBoolean terminatedOnceOtherEnded = new AtomicBoolean();
        AtomicBoolean selfInterrupted = new AtomicBoolean(true);
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            try {
                pool.shutdown();
                terminatedWhileOtherRan.set(pool.awaitTermination(50, TimeUnit.MILLISECONDS));
                pool.shutdownNow(); // the other upcall outlasted the wait
                terminatedOnceOtherEnded.set(pool.awaitTermination(10, TimeUnit.SECONDS));
                selfInterrupted.set(Thread.currentThread().isInterrupted());
            } catch (InterruptedException e) {
                selfInterrupted.set(true);
            } finally {
                done.countDown();
            }
        });
        assertTrue(done.await(20, TimeUnit.SECONDS));
        assertFalse(terminatedWhileOtherRan.get(), "another upcall still ran");
        assertTrue(otherInterrupted.await(10, TimeUnit.SECONDS), "shutdownNow interrupted the other upcall");
        assertTrue(terminatedOnceOtherEnded.get(), "terminated once the others ended, not waiting for its caller");
        assertFalse(selfInterrupted.get(), "shutdownNow interrupted the worker that called it");
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void aThrowingTaskIsLoggedAndItsWorkerKeepsServing() throws InterruptedException {
        WorkerPool pool = pool(1, 1, 10, true, LONG_IDLE_NANOS);
        pool.execute(() -> {
            throw new IllegalStateException("expected by the test");
        });
        assertEquals("test-worker-0", runOnce(pool));
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.completed() == 2);
        assertEquals(1, pool.threadsCreated());
        assertEquals(0, pool.threadsRetired());
    }

    private WorkerPool poolWithGrace(int core, int max, long growAfterMicros) {
        EngineSettings settings =
                EngineSettings.DEFAULTS.withPool(core, max, 60).withGrowAfterMicros(growAfterMicros);
        WorkerPool pool = new WorkerPool(settings, "grace-worker-", LONG_IDLE_NANOS);
        pools.add(pool);
        return pool;
    }

    @Test
    void withAGraceAnUpcallWaitsForABusyWorkerInsteadOfStartingAThread() throws InterruptedException {
        WorkerPool pool = poolWithGrace(1, 4, TimeUnit.SECONDS.toMicros(20)); // longer than the test may take
        CountDownLatch release = new CountDownLatch(1);
        String busy = occupy(pool, release)[0];

        AtomicReference<String> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
            ranOn.set(Thread.currentThread().getName());
            ran.countDown();
        });
        assertEquals(1, pool.queued(), "queued behind the busy worker");
        assertEquals(1, pool.threadsCreated(), "no thread started for it");
        pool.checkInvariants(); // the grower watches the waiting upcall

        release.countDown();
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertEquals(busy, ranOn.get(), "the worker that finished took it");
        assertEquals(1, pool.threadsCreated());
        assertEquals(0, pool.threadsGrownAfterWait());
    }

    @Test
    void anUpcallWaitingBehindABlockedWorkerGetsAThreadOnceTheGraceHasPassed() throws InterruptedException {
        long graceMicros = 50_000;
        WorkerPool pool = poolWithGrace(1, 4, graceMicros);
        occupy(pool, new CountDownLatch(1)); // blocked until tearDown interrupts it

        CountDownLatch ran = new CountDownLatch(1);
        AtomicLong waitedNanos = new AtomicLong();
        long queuedAt = System.nanoTime();
        pool.execute(() -> {
            waitedNanos.set(System.nanoTime() - queuedAt);
            ran.countDown();
        });

        assertTrue(ran.await(10, TimeUnit.SECONDS), "not stranded behind the blocked worker");
        assertTrue(
                waitedNanos.get() >= TimeUnit.MICROSECONDS.toNanos(graceMicros),
                "a thread starts only after the grace: waited " + waitedNanos.get() + " ns");
        assertEquals(2, pool.threadsCreated());
        assertEquals(1, pool.threadsGrownAfterWait());
    }

    @Test
    void growsByAtMostOneThreadPerGracePeriodAndNeverBeyondTheMaximum() throws InterruptedException {
        long graceMicros = 30_000;
        WorkerPool pool = poolWithGrace(1, 3, graceMicros);
        occupy(pool, new CountDownLatch(1));
        long first = System.nanoTime();
        CountDownLatch release = new CountDownLatch(1);
        long[] startedAt = new long[4];
        CountDownLatch started = new CountDownLatch(2);
        for (int i = 0; i < 4; i++) { // four blocking upcalls queued at once behind the blocked worker
            int index = i;
            pool.execute(() -> {
                startedAt[index] = System.nanoTime();
                started.countDown();
                block(release);
            });
        }
        assertTrue(started.await(10, TimeUnit.SECONDS), "two grew: the maximum is 3");
        await().during(Duration.ofMillis(150)).atMost(Duration.ofSeconds(5)).until(() -> pool.queued() == 2);
        assertEquals(3, pool.threadsCreated());
        assertEquals(2, pool.threadsGrownAfterWait());
        long grace = TimeUnit.MICROSECONDS.toNanos(graceMicros);
        // measured from `first`, which precedes both queueings: a start time is taken on the new thread, which may
        // run long after the grower started it, so the gap between the two start times bounds nothing
        assertTrue(startedAt[0] - first >= grace, "the first grew after one grace");
        assertTrue(startedAt[1] - first >= 2 * grace, "the next one a grace after the first, not at once");
        pool.checkInvariants();
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.completed() == 4);
    }

    private WorkerPool poolWithDemand(int core, int max, long growAfterMicros, int recentlyActiveChannels) {
        return poolWithDemand(core, max, growAfterMicros, () -> recentlyActiveChannels);
    }

    private WorkerPool poolWithDemand(int core, int max, long growAfterMicros, IntSupplier recentlyActiveChannels) {
        EngineSettings settings =
                EngineSettings.DEFAULTS.withPool(core, max, 60).withGrowAfterMicros(growAfterMicros);
        WorkerPool pool = new WorkerPool(settings, "demand-worker-", LONG_IDLE_NANOS, recentlyActiveChannels);
        pools.add(pool);
        return pool;
    }

    @Test
    void belowOneWorkerPerRecentlyActiveChannelAnUpcallGetsAThreadAtOnceAndBeyondItWaits() throws InterruptedException {
        // a grace far longer than the test: any thread started here was started at once, not by the grower
        WorkerPool pool = poolWithDemand(1, 8, TimeUnit.SECONDS.toMicros(20), 3);
        CountDownLatch release = new CountDownLatch(1);
        occupy(pool, release, release, release); // three channels' upcalls overlapping: three threads, none waited
        assertEquals(3, pool.threadsCreated());
        assertEquals(0, pool.queued());

        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown); // a fourth overlapping upcall, beyond the three channels: it waits
        assertEquals(1, pool.queued(), "queued behind the busy workers");
        assertEquals(3, pool.threadsCreated(), "no thread started for it");
        pool.checkInvariants();

        release.countDown();
        assertTrue(ran.await(10, TimeUnit.SECONDS), "a worker that finished took it");
        assertEquals(3, pool.threadsCreated());
        assertEquals(0, pool.threadsGrownAfterWait());
    }

    @Test
    void theFirstOverlapBeyondTheCoreStartsOneWorkerPerRecentlyActiveChannel() throws InterruptedException {
        // The demand rises as channels become active, as the engine's does. Were it 6 from the start, the first
        // upcall (no worker alive) would already start the grower, whose first idle worker could then take the
        // second upcall before it found no idle worker: one more grown for demand, none started for the overlap.
        AtomicInteger recentlyActive = new AtomicInteger(1);
        WorkerPool pool = poolWithDemand(1, 8, TimeUnit.SECONDS.toMicros(20), recentlyActive::get);
        CountDownLatch release = new CountDownLatch(1);
        occupy(pool, release); // one channel's upcall: the core worker, nothing to top up
        assertEquals(0, pool.threadsGrownForDemand(), "one worker for one channel");
        recentlyActive.set(6);
        occupy(pool, release); // the second overlapping upcall: beyond the core, below the demand

        await().atMost(Duration.ofSeconds(10)).until(() -> pool.threads() == 6 && pool.idleThreads() == 4);
        assertEquals(4, pool.threadsGrownForDemand(), "the grower started the rest idle");
        pool.checkInvariants();

        CountDownLatch more = new CountDownLatch(1);
        occupy(pool, more, more, more, more); // the other four channels overlap too: no thread starts for them
        assertEquals(6, pool.threadsCreated());
        assertEquals(0, pool.idleThreads());
        release.countDown();
        more.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.completed() == 6);
        assertEquals(6, pool.threadsCreated(), "never beyond one per recently active channel");
    }

    @Test
    void afterAGrowthForDemandARiseInTheDemandTopsThePoolUpEvenWithIdleWorkers() throws InterruptedException {
        AtomicInteger recentlyActive = new AtomicInteger(2);
        WorkerPool pool = poolWithDemand(1, 16, TimeUnit.SECONDS.toMicros(20), recentlyActive::get);
        CountDownLatch release = new CountDownLatch(1);
        occupy(pool, release, release); // two channels overlap: the second upcall starts a thread for the demand
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.completed() == 2 && pool.idleThreads() == 2);
        assertEquals(2, pool.threadsCreated());
        long grownBefore = pool.threadsGrownForDemand();

        recentlyActive.set(10); // more channels became active, but none of their upcalls overlap
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown); // an idle worker takes it
        assertTrue(ran.await(10, TimeUnit.SECONDS));

        // without the top-up the next overlap of those channels, maybe in a later burst, would start these threads
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.threads() == 10);
        assertEquals(8, pool.threadsGrownForDemand() - grownBefore, "the grower started the rest idle");
        pool.checkInvariants();
    }

    @Test
    void aRiseInTheDemandAloneStartsNothingBeforeUpcallsHaveOverlapped() throws InterruptedException {
        AtomicInteger recentlyActive = new AtomicInteger(1);
        WorkerPool pool = poolWithDemand(2, 16, TimeUnit.SECONDS.toMicros(20), recentlyActive::get);
        for (int i = 0; i < 20; i++) { // one upcall at a time: the core workers serve them all
            if (i == 1) {
                recentlyActive.set(10); // more channels active, their upcalls one after the other
            }
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            int done = i + 1;
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.completed() == done);
        }
        assertTrue(pool.threadsCreated() <= 2, "only core workers: " + pool.threadsCreated());
        assertEquals(0, pool.threadsGrownForDemand());
    }

    @Test
    void withoutAGraceTheDemandStartsNoIdleWorkers() throws InterruptedException {
        WorkerPool pool = poolWithDemand(1, 8, 0, 6); // grow at once: each overlapping upcall gets its own thread
        CountDownLatch release = new CountDownLatch(1);
        occupy(pool, release, release);
        assertEquals(2, pool.threadsCreated());
        assertEquals(0, pool.threadsGrownForDemand());
        release.countDown();
    }

    @Test
    void threadsAreNamedDaemons() throws InterruptedException {
        WorkerPool pool = pool(2, 2, 10, true, LONG_IDLE_NANOS);
        AtomicReference<Thread> thread = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            thread.set(Thread.currentThread());
            done.countDown();
        });
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertTrue(thread.get().isDaemon());
        assertEquals("test-worker-0", thread.get().getName());
        assertNotEquals(Thread.currentThread(), thread.get());
    }

    @Test
    void rejectsNull() {
        WorkerPool pool = pool(1, 1, 1, true, LONG_IDLE_NANOS);
        assertThrows(NullPointerException.class, () -> pool.execute(null));
    }

    /** Blocks a task until the test releases it (or tearDown's shutdownNow interrupts it). */
    private static void block(CountDownLatch release) {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
