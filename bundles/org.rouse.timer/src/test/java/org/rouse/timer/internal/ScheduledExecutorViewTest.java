package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerState;

/**
 * {@code TimerOwner.asScheduledExecutorService()} against the JDK: each scenario runs on a real
 * {@link ScheduledThreadPoolExecutor} and on the view, and must observe the same thing on both.
 */
@Timeout(30)
class ScheduledExecutorViewTest {

    private final TimerFrontCore core = new TimerFrontCore();
    private final WheelTimerEngine engine = WheelTimerEngine.started(2);
    private final BundleTimerView timers;

    ScheduledExecutorViewTest() {
        core.swapTo(engine);
        timers = core.newView("executor-view");
    }

    @AfterEach
    void stop() {
        core.release(timers);
        core.swapTo(null);
        engine.shutdown();
    }

    static Stream<Arguments> executors() {
        Function<ScheduledExecutorViewTest, ScheduledExecutorService> jdk = test -> new ScheduledThreadPoolExecutor(2);
        Function<ScheduledExecutorViewTest, ScheduledExecutorService> rouse =
                test -> test.timers.owner("view").asScheduledExecutorService();
        return Stream.of(Arguments.of("jdk", jdk), Arguments.of("rouse", rouse));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("executors")
    void aCallableDeliversItsResult(String name, Function<ScheduledExecutorViewTest, ScheduledExecutorService> make)
            throws Exception {
        ScheduledExecutorService executor = make.apply(this);
        ScheduledFuture<String> future = executor.schedule(() -> "done", 20, TimeUnit.MILLISECONDS);
        assertTrue(future.getDelay(TimeUnit.MILLISECONDS) <= 20);
        assertEquals("done", future.get(10, TimeUnit.SECONDS));
        assertTrue(future.isDone());
        assertEquals(42, executor.submit(() -> 42).get(10, TimeUnit.SECONDS));
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("executors")
    void aPeriodicTaskThatThrowsStopsAndItsFutureCarriesTheException(
            String name, Function<ScheduledExecutorViewTest, ScheduledExecutorService> make) throws Exception {
        ScheduledExecutorService executor = make.apply(this);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = executor.scheduleAtFixedRate(
                () -> {
                    if (runs.incrementAndGet() == 3) {
                        throw new IllegalStateException("third run fails");
                    }
                },
                0,
                5,
                TimeUnit.MILLISECONDS);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, failure.getCause());
        assertTrue(future.isDone());
        assertFalse(future.isCancelled());
        executor.schedule(() -> null, 50, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS); // ten periods later
        assertEquals(3, runs.get(), "ran again after throwing");
        executor.shutdownNow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("executors")
    void aCancelledPeriodicTaskStops(String name, Function<ScheduledExecutorViewTest, ScheduledExecutorService> make)
            throws Exception {
        ScheduledExecutorService executor = make.apply(this);
        CountDownLatch twice = new CountDownLatch(2);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = executor.scheduleWithFixedDelay(
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
        int after = runs.get();
        executor.schedule(() -> null, 50, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        assertTrue(runs.get() <= after + 1, "kept running after cancel"); // one run may have been under way
        executor.shutdownNow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("executors")
    void shutdownRejectsNewTasksLetsDelayedOnesRunAndCancelsPeriodicOnes(
            String name, Function<ScheduledExecutorViewTest, ScheduledExecutorService> make) throws Exception {
        ScheduledExecutorService executor = make.apply(this);
        // the delayed task, once it runs, holds the executor open until the test has looked at it
        CountDownLatch release = new CountDownLatch(1);
        ScheduledFuture<String> delayed = executor.schedule(
                () -> {
                    assertTrue(release.await(10, TimeUnit.SECONDS));
                    return "ran";
                },
                100,
                TimeUnit.MILLISECONDS);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {}, 0, 5, TimeUnit.MILLISECONDS);
        executor.shutdown();
        assertTrue(executor.isShutdown());
        assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> {}));
        // a periodic task that is running when shutdown is called is cancelled once that run returns (the JDK's
        // ScheduledFutureTask.run re-checks the run state before re-queueing), so it may not be cancelled yet
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(periodic::isCancelled);
        assertFalse(executor.isTerminated());
        release.countDown();
        assertEquals("ran", delayed.get(10, TimeUnit.SECONDS));
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(executor.isTerminated());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("executors")
    void shutdownNowReturnsWaitingTasksAndInterruptsRunningOnes(
            String name, Function<ScheduledExecutorViewTest, ScheduledExecutorService> make) throws Exception {
        ScheduledExecutorService executor = make.apply(this);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        executor.execute(() -> {
            running.countDown();
            try {
                new CountDownLatch(1).await(); // blocks until shutdownNow interrupts it
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        AtomicInteger waitingRuns = new AtomicInteger();
        executor.schedule(waitingRuns::incrementAndGet, 1, TimeUnit.HOURS);
        List<Runnable> waiting = executor.shutdownNow();
        assertEquals(1, waiting.size());
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the running task was not interrupted");
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(0, waitingRuns.get());
    }

    @Test
    void shutdownOfOneViewLeavesTheOwnersOtherTimersAndOtherViewsAlone() throws Exception {
        TimerOwner owner = timers.owner("shared");
        ScheduledExecutorService first = owner.asScheduledExecutorService();
        ScheduledExecutorService second = owner.asScheduledExecutorService();
        AtomicInteger direct = new AtomicInteger();
        Timer timer = owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(5), e -> direct.incrementAndGet());
        ScheduledFuture<?> other = second.scheduleAtFixedRate(() -> {}, 0, 5, TimeUnit.MILLISECONDS);
        first.scheduleAtFixedRate(() -> {}, 0, 5, TimeUnit.MILLISECONDS);
        first.shutdownNow();
        assertTrue(first.awaitTermination(10, TimeUnit.SECONDS));
        int before = direct.get();
        Awaitility.await().until(() -> direct.get() > before + 3);
        assertFalse(other.isDone());
        assertEquals(TimerState.SCHEDULED, Awaitility.await().until(timer::state, s -> s == TimerState.SCHEDULED));
        assertEquals("wheel", timers.statistics().engine(), "the engine is untouched");

        owner.close(); // closing the owner ends its views
        assertTrue(other.isCancelled());
        assertTrue(second.isShutdown());
        assertThrows(IllegalStateException.class, owner::asScheduledExecutorService);
    }

    @Test
    void periodicViewTasksAreClampedToTheMinimumIntervalLikeEveryTimer() throws Exception {
        ScheduledExecutorService executor = timers.owner("clamp").asScheduledExecutorService();
        CountDownLatch ran = new CountDownLatch(2);
        Future<?> future = executor.scheduleAtFixedRate(ran::countDown, 0, 1, TimeUnit.NANOSECONDS);
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        future.cancel(false);
        assertTrue(timers.statistics().clamped() >= 1);
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }
}
