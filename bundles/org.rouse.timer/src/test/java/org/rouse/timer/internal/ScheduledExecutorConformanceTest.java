package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;

/**
 * The {@link ScheduledExecutorService} and {@link java.util.concurrent.ExecutorService} contracts, written from their
 * Javadoc, run against the JDK's {@link ScheduledThreadPoolExecutor} (with one thread, so that its tasks run one at a
 * time like an owner's) and against {@code TimerOwner.asScheduledExecutorService()}. The JDK run proves that each test
 * encodes the JDK's behaviour; the view must pass the same tests. Deliberate differences of the view (periods raised
 * to the minimum interval, fixed-rate overruns coalesced) are not exercised here.
 */
@Timeout(30)
class ScheduledExecutorConformanceTest {

    private static final long FAR_DAYS = 50 * 365; // "never": longer than any test or process

    private TimerFrontCore core;
    private WheelTimerEngine engine;
    private BundleTimerView view;
    private ScheduledExecutorService executor;
    private final List<CountDownLatch> toRelease = new CopyOnWriteArrayList<>();

    private ScheduledExecutorService make(String kind) {
        if (kind.equals("jdk")) {
            executor = new ScheduledThreadPoolExecutor(1);
        } else {
            core = new TimerFrontCore();
            engine = WheelTimerEngine.started(2);
            core.swapTo(engine);
            view = core.newView("conformance");
            executor = view.owner("conformance").asScheduledExecutorService();
        }
        return executor;
    }

    /**
     * Waits until the tasks scheduled so far whose delay has elapsed are due inside the executor: for the JDK they are
     * in its queue from the start; the view's are armed timers until the engine fires them into the owner's queue.
     * At most {@code stillArmed} of the view's timers may still wait for their deadline.
     */
    private void awaitDueTasksQueued(long stillArmed) {
        if (view != null) {
            Awaitility.await().until(() -> view.statistics().pending() <= stillArmed);
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        toRelease.forEach(CountDownLatch::countDown);
        if (executor != null) {
            executor.shutdownNow();
            assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS), "the executor did not terminate");
        }
        if (core != null) {
            core.release(view);
            core.swapTo(null);
            engine.shutdown();
        }
    }

    private CountDownLatch latch() {
        CountDownLatch latch = new CountDownLatch(1);
        toRelease.add(latch);
        return latch;
    }

    /** A task that signals it started, then waits for {@code release} and cannot be interrupted out of it. */
    private static Runnable blocker(CountDownLatch started, CountDownLatch interrupted, CountDownLatch release) {
        return () -> {
            started.countDown();
            boolean wasInterrupted = false;
            for (; ; ) {
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    wasInterrupted = true;
                    interrupted.countDown();
                }
            }
            if (wasInterrupted) {
                Thread.currentThread().interrupt();
            }
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void aDelayedTaskRunsNoEarlierThanItsDelayAndDeliversItsResult(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        long scheduled = System.nanoTime();
        ScheduledFuture<Long> future = executor.schedule(System::nanoTime, 30, TimeUnit.MILLISECONDS);
        long delay = future.getDelay(TimeUnit.MILLISECONDS);
        // what is left of the 30 ms: at most all of it, at least what this thread has not yet spent since (it may
        // have been descheduled past the deadline, and then the delay is rightly negative), less 1 ms per truncation
        long spentMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - scheduled);
        assertTrue(delay <= 30 && delay >= 30 - spentMillis - 2, "delay " + delay + " after " + spentMillis + " ms");
        long ranAt = future.get(10, TimeUnit.SECONDS);
        assertTrue(ranAt - scheduled >= TimeUnit.MILLISECONDS.toNanos(30), "ran early");
        assertTrue(future.isDone());
        assertFalse(future.isCancelled());
        assertFalse(future.cancel(false), "a completed task cannot be cancelled");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void executeAndSubmitRunTheirTasks(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        CountDownLatch executed = new CountDownLatch(1);
        executor.execute(executed::countDown);
        assertTrue(executed.await(10, TimeUnit.SECONDS));
        assertEquals(42, executor.submit(() -> 42).get(10, TimeUnit.SECONDS));
        assertEquals("given", executor.submit(() -> {}, "given").get(10, TimeUnit.SECONDS));
        assertNull(executor.submit(() -> {}).get(10, TimeUnit.SECONDS));
        Future<?> failing = executor.submit(() -> {
            throw new IllegalStateException("expected by the test");
        });
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> failing.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, thrown.getCause());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void nullArgumentsAndNonPositivePeriodsAreRefusedBeforeAnythingElse(String kind) {
        ScheduledExecutorService executor = make(kind);
        for (int round = 0; round < 2; round++) { // the same answers once shut down: these checks come first
            assertThrows(NullPointerException.class, () -> executor.schedule((Runnable) null, 1, TimeUnit.SECONDS));
            assertThrows(NullPointerException.class, () -> executor.schedule((Callable<?>) null, 1, TimeUnit.SECONDS));
            assertThrows(NullPointerException.class, () -> executor.schedule(() -> {}, 1, null));
            assertThrows(NullPointerException.class, () -> executor.execute(null));
            assertThrows(NullPointerException.class, () -> executor.scheduleAtFixedRate(null, 0, 1, TimeUnit.SECONDS));
            assertThrows(NullPointerException.class, () -> executor.scheduleWithFixedDelay(() -> {}, 0, 1, null));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> executor.scheduleAtFixedRate(() -> {}, 0, 0, TimeUnit.SECONDS));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> executor.scheduleWithFixedDelay(() -> {}, 0, -1, TimeUnit.SECONDS));
            executor.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void hugeDelaysAndPeriodsInEveryUnitAreAcceptedAndMeanNever(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        AtomicInteger runs = new AtomicInteger();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (TimeUnit unit : TimeUnit.values()) {
            futures.add(executor.schedule(runs::incrementAndGet, Long.MAX_VALUE, unit));
            futures.add(executor.schedule(() -> runs.incrementAndGet(), Long.MAX_VALUE, unit));
            futures.add(executor.scheduleAtFixedRate(runs::incrementAndGet, Long.MAX_VALUE, Long.MAX_VALUE, unit));
            futures.add(executor.scheduleWithFixedDelay(runs::incrementAndGet, Long.MAX_VALUE, Long.MAX_VALUE, unit));
        }
        for (ScheduledFuture<?> future : futures) {
            assertTrue(future.getDelay(TimeUnit.DAYS) > FAR_DAYS, "delay " + future.getDelay(TimeUnit.DAYS) + " days");
        }
        CountDownLatch firstRuns = new CountDownLatch(2);
        long rateScheduled = System.nanoTime();
        ScheduledFuture<?> rate = executor.scheduleAtFixedRate(firstRuns::countDown, 0, Long.MAX_VALUE, TimeUnit.DAYS);
        ScheduledFuture<?> delay =
                executor.scheduleWithFixedDelay(firstRuns::countDown, 0, Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        assertTrue(firstRuns.await(10, TimeUnit.SECONDS), "a periodic task with a huge period runs once at once");
        Awaitility.await()
                .until(() -> rate.getDelay(TimeUnit.DAYS) > FAR_DAYS && delay.getDelay(TimeUnit.DAYS) > FAR_DAYS);
        CountDownLatch minimum = new CountDownLatch(1);
        executor.schedule(minimum::countDown, Long.MIN_VALUE, TimeUnit.DAYS);
        assertTrue(minimum.await(10, TimeUnit.SECONDS), "a negative delay means now");
        for (ScheduledFuture<?> future : futures) {
            assertTrue(future.cancel(false));
        }
        assertEquals(0, runs.get());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void everySchedulingCallIsRejectedAfterShutdownWhateverTheDelay(String kind) {
        ScheduledExecutorService executor = make(kind);
        executor.shutdown();
        assertTrue(executor.isShutdown());
        for (TimeUnit unit : TimeUnit.values()) {
            for (long delay : new long[] {0, 1, Long.MAX_VALUE, Long.MIN_VALUE}) {
                assertThrows(RejectedExecutionException.class, () -> executor.schedule(() -> {}, delay, unit));
                assertThrows(RejectedExecutionException.class, () -> executor.schedule(() -> 1, delay, unit));
                assertThrows(
                        RejectedExecutionException.class,
                        () -> executor.scheduleAtFixedRate(() -> {}, delay, Long.MAX_VALUE, unit));
                assertThrows(
                        RejectedExecutionException.class,
                        () -> executor.scheduleWithFixedDelay(() -> {}, delay, Long.MAX_VALUE, unit));
            }
        }
        assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> {}));
        assertThrows(RejectedExecutionException.class, () -> executor.submit(() -> 1));
        assertThrows(RejectedExecutionException.class, () -> executor.submit(() -> {}));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void anIdleExecutorTerminatesOnShutdown(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        assertFalse(executor.awaitTermination(20, TimeUnit.MILLISECONDS), "not shut down: cannot terminate");
        assertFalse(executor.isTerminated());
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(executor.isTerminated());
        assertEquals(List.of(), executor.shutdownNow());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void shutdownLetsDelayedAndDueTasksRunCancelsPeriodicOnesAndTerminatesWhenTheLastTaskEnds(String kind)
            throws Exception {
        ScheduledExecutorService executor = make(kind);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = latch();
        executor.execute(blocker(started, new CountDownLatch(1), release));
        assertTrue(started.await(10, TimeUnit.SECONDS));
        ScheduledFuture<String> due = executor.schedule(() -> "due", 0, TimeUnit.MILLISECONDS);
        ScheduledFuture<String> delayed = executor.schedule(() -> "delayed", 500, TimeUnit.MILLISECONDS);
        AtomicInteger periodicRuns = new AtomicInteger();
        ScheduledFuture<?> periodic =
                executor.scheduleAtFixedRate(periodicRuns::incrementAndGet, 0, 5, TimeUnit.MILLISECONDS);
        awaitDueTasksQueued(1); // only "delayed" still waits for its deadline
        executor.shutdown();
        assertTrue(executor.isShutdown());
        assertTrue(periodic.isCancelled());
        assertFalse(executor.isTerminated(), "a task is running");
        assertFalse(executor.awaitTermination(100, TimeUnit.MILLISECONDS), "a task is running");
        assertFalse(due.isDone());
        release.countDown();
        assertEquals("due", due.get(10, TimeUnit.SECONDS));
        assertEquals("delayed", delayed.get(10, TimeUnit.SECONDS));
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(executor.isTerminated());
        assertEquals(0, periodicRuns.get(), "the periodic task was waiting behind the running one");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void shutdownWhileAPeriodicTaskRunsEndsItAfterThatRunAndTerminatesOnlyThen(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = latch();
        AtomicInteger runs = new AtomicInteger();
        Runnable block = blocker(started, new CountDownLatch(1), release);
        ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(
                () -> {
                    runs.incrementAndGet();
                    block.run();
                },
                0,
                1,
                TimeUnit.MILLISECONDS);
        assertTrue(started.await(10, TimeUnit.SECONDS));
        executor.shutdown();
        assertFalse(executor.isTerminated(), "the periodic task is running");
        assertFalse(executor.awaitTermination(100, TimeUnit.MILLISECONDS));
        release.countDown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(periodic.isCancelled());
        assertThrows(CancellationException.class, periodic::get);
        assertEquals(1, runs.get());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void shutdownNowReturnsEveryTaskNotStartedInterruptsTheRunningOneAndNoneOfThemRunsAfterwards(String kind)
            throws Exception {
        ScheduledExecutorService executor = make(kind);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch release = latch();
        executor.execute(blocker(started, interrupted, release));
        assertTrue(started.await(10, TimeUnit.SECONDS));
        AtomicInteger waitingRuns = new AtomicInteger();
        ScheduledFuture<?> due = executor.schedule(waitingRuns::incrementAndGet, 0, TimeUnit.NANOSECONDS);
        ScheduledFuture<?> duePeriodic =
                executor.scheduleAtFixedRate(waitingRuns::incrementAndGet, 0, 5, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> later = executor.schedule(waitingRuns::incrementAndGet, 1, TimeUnit.HOURS);
        awaitDueTasksQueued(1); // "due" and "duePeriodic" wait behind the running task, "later" for its deadline

        List<Runnable> neverStarted = executor.shutdownNow();
        assertEquals(3, neverStarted.size(), "the waiting tasks, due or not");
        assertEquals(Set.of(due, duePeriodic, later), Set.copyOf(neverStarted));
        assertTrue(executor.isShutdown());
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the running task was not interrupted");
        assertFalse(executor.isTerminated(), "the running task has not returned");
        assertFalse(executor.awaitTermination(100, TimeUnit.MILLISECONDS), "the running task has not returned");
        release.countDown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(executor.isTerminated());
        assertEquals(0, waitingRuns.get(), "a task handed back by shutdownNow ran");
        assertFalse(due.isDone(), "handed back, not cancelled");
        assertFalse(later.isDone(), "handed back, not cancelled");
        assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> {}));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void aCancelledFutureNeverRunsAndCancelWithInterruptInterruptsOnlyItsOwnRun(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> waiting = executor.schedule(runs::incrementAndGet, 1, TimeUnit.HOURS);
        assertTrue(waiting.cancel(false));
        assertTrue(waiting.isCancelled());
        assertTrue(waiting.isDone());
        assertFalse(waiting.cancel(false), "already cancelled");
        assertThrows(CancellationException.class, waiting::get);
        assertThrows(CancellationException.class, () -> waiting.get(1, TimeUnit.SECONDS));

        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch release = latch();
        Future<?> running = executor.submit(blocker(started, interrupted, release));
        assertTrue(started.await(10, TimeUnit.SECONDS));
        assertTrue(running.cancel(true));
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "cancel(true) interrupts the running task");
        release.countDown();
        assertFalse(
                executor.submit(() -> Thread.currentThread().isInterrupted()).get(10, TimeUnit.SECONDS),
                "the interrupt leaked into the next task");
        assertEquals(0, runs.get());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void aPeriodicTaskThatThrowsStopsAndItsFutureReportsTheThrowable(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        AtomicInteger rateRuns = new AtomicInteger();
        long rateScheduled = System.nanoTime();
        ScheduledFuture<?> rate = executor.scheduleAtFixedRate(
                () -> {
                    if (rateRuns.incrementAndGet() == 3) {
                        throw new IllegalStateException("third run fails (expected by the test)");
                    }
                },
                0,
                5,
                TimeUnit.MILLISECONDS);
        AtomicInteger delayRuns = new AtomicInteger();
        ScheduledFuture<?> delay = executor.scheduleWithFixedDelay(
                () -> {
                    if (delayRuns.incrementAndGet() == 2) {
                        throw new StackOverflowError("second run fails (expected by the test)");
                    }
                },
                0,
                5,
                TimeUnit.MILLISECONDS);
        ExecutionException rateFailure = assertThrows(ExecutionException.class, () -> rate.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, rateFailure.getCause());
        ExecutionException delayFailure = assertThrows(ExecutionException.class, () -> delay.get(10, TimeUnit.SECONDS));
        assertInstanceOf(StackOverflowError.class, delayFailure.getCause());
        assertTrue(rate.isDone());
        assertFalse(rate.isCancelled());
        executor.schedule(() -> null, 50, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS); // ten periods later
        assertEquals(3, rateRuns.get(), "ran again after throwing");
        assertEquals(2, delayRuns.get(), "ran again after throwing");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void aCancelledPeriodicTaskStops(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        CountDownLatch twice = new CountDownLatch(2);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = executor.scheduleAtFixedRate(
                () -> {
                    runs.incrementAndGet();
                    twice.countDown();
                },
                0,
                5,
                TimeUnit.MILLISECONDS);
        assertTrue(twice.await(10, TimeUnit.SECONDS));
        assertTrue(future.cancel(false));
        assertTrue(future.isCancelled());
        assertThrows(CancellationException.class, future::get);
        int after = runs.get(); // the executor is serial: once this next task has run, no run can be under way
        executor.schedule(() -> null, 50, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        assertTrue(runs.get() <= after + 1, "kept running after cancel");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void fixedRateKeepsItsScheduleWhileFixedDelayWaitsAfterEachRun(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        long period = TimeUnit.MILLISECONDS.toNanos(60);
        long work = TimeUnit.MILLISECONDS.toNanos(50);
        int count = 6;
        List<long[]> rateRuns = new CopyOnWriteArrayList<>();
        List<long[]> delayRuns = new CopyOnWriteArrayList<>();
        CountDownLatch rateDone = new CountDownLatch(count);
        CountDownLatch delayDone = new CountDownLatch(count);
        long rateScheduled = System.nanoTime();
        ScheduledFuture<?> rate =
                executor.scheduleAtFixedRate(() -> work(work, rateRuns, rateDone), 0, period, TimeUnit.NANOSECONDS);
        assertTrue(rateDone.await(10, TimeUnit.SECONDS));
        rate.cancel(false);
        ScheduledFuture<?> delay = executor.scheduleWithFixedDelay(
                () -> work(work, delayRuns, delayDone), 0, period, TimeUnit.NANOSECONDS);
        assertTrue(delayDone.await(10, TimeUnit.SECONDS));
        delay.cancel(false);

        long first = rateRuns.get(0)[0];
        for (int k = 1; k < count; k++) {
            assertTrue(rateRuns.get(k)[0] - rateScheduled >= k * period, "fixed rate ran early at run " + k);
            assertTrue(
                    delayRuns.get(k)[0] - delayRuns.get(k - 1)[1] >= period,
                    "fixed delay did not wait a full delay after run " + (k - 1));
        }
        long rateSpan = rateRuns.get(count - 1)[0] - first;
        assertTrue(
                rateSpan < (count - 1) * (period + work),
                "fixed rate took as long as fixed delay must: " + rateSpan / 1_000_000 + " ms");
    }

    /** Works for {@code nanos} (parked, not spinning), then records {start, end} in {@code runs}. */
    private static void work(long nanos, List<long[]> runs, CountDownLatch done) {
        long start = System.nanoTime();
        long end = start + nanos;
        for (long now = start; now - end < 0; now = System.nanoTime()) {
            LockSupport.parkNanos(end - now);
        }
        runs.add(new long[] {start, System.nanoTime()});
        done.countDown();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void invokeAllAndInvokeAny(String kind) throws Exception {
        ScheduledExecutorService executor = make(kind);
        List<Callable<Integer>> tasks = List.of(() -> 1, () -> 2, () -> 3);
        List<Future<Integer>> all = executor.invokeAll(tasks);
        assertEquals(3, all.size());
        for (int i = 0; i < 3; i++) {
            assertTrue(all.get(i).isDone());
            assertEquals(i + 1, all.get(i).get());
        }
        assertTrue(Set.of(1, 2, 3).contains(executor.invokeAny(tasks)));
        ExecutionException none = assertThrows(
                ExecutionException.class,
                () -> executor.invokeAny(List.of(() -> {
                    throw new IllegalStateException("expected by the test");
                })));
        assertInstanceOf(IllegalStateException.class, none.getCause());

        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch release = latch();
        Runnable block = blocker(started, interrupted, release);
        AtomicBoolean behindRan = new AtomicBoolean();
        List<Future<Object>> timedOut = executor.invokeAll(
                List.of(
                        () -> {
                            block.run();
                            return null;
                        },
                        () -> behindRan.getAndSet(true)),
                100,
                TimeUnit.MILLISECONDS);
        assertTrue(timedOut.get(0).isCancelled(), "a task not done by the timeout is cancelled");
        assertTrue(timedOut.get(1).isCancelled(), "a task not done by the timeout is cancelled");
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the running task was interrupted on cancel");
        release.countDown();
        assertEquals(7, executor.submit(() -> 7).get(10, TimeUnit.SECONDS));
        assertFalse(behindRan.get(), "a cancelled task ran");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk", "rouse"})
    void scheduledFuturesReportTheirDelayAndOrderByIt(String kind) {
        ScheduledExecutorService executor = make(kind);
        ScheduledFuture<?> sooner = executor.schedule(() -> {}, 1, TimeUnit.HOURS);
        ScheduledFuture<?> later = executor.schedule(() -> {}, 2, TimeUnit.HOURS);
        long minutes = sooner.getDelay(TimeUnit.MINUTES);
        assertTrue(minutes >= 58 && minutes <= 60, minutes + " min");
        assertTrue(sooner.compareTo(later) < 0);
        assertTrue(later.compareTo(sooner) > 0);
        assertEquals(0, sooner.compareTo(sooner));
    }
}
