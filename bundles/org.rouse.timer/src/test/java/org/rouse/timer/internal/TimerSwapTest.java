package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.spi.TimerEngine;

/**
 * Swapping engines under load: every one-shot fires exactly once, periodic timers go on; a handler may replace its own
 * engine.
 */
class TimerSwapTest {

    @Test
    @Timeout(60)
    void everyOneShotFiresExactlyOnceAcrossRepeatedSwaps() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        List<TimerEngine> engines = new ArrayList<>();
        engines.add(WheelTimerEngine.started(2));
        core.swapTo(engines.get(0));
        BundleTimerView view = core.newView("swap-test");

        int count = 10_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        CountDownLatch allFired = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            TimerOwner owner = view.owner("owner-" + (i % 100));
            owner.schedule(Duration.ofMillis(i % 1000), e -> {
                if (runs.incrementAndGet(index) == 1) {
                    allFired.countDown();
                }
            });
        }
        AtomicLong periodicRuns = new AtomicLong();
        for (int i = 0; i < 100; i++) {
            view.owner("periodic-" + i)
                    .scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(10), e -> periodicRuns.incrementAndGet());
        }

        // Swap back and forth between two engines (a drained engine is used again, as when the front falls back to a
        // lower-ranked one), every fifth time through "no engine at all", while timers fall due.
        engines.add(ScheduledTimerEngine.started(2)); // the wheel and the heap engine take turns
        for (int swap = 0; swap < 20; swap++) { // paced over about the 1 s in which the one-shots fall due
            TimerEngine next = engines.get((swap + 1) % 2);
            if (swap % 5 == 4) {
                core.swapTo(null);
            }
            core.swapTo(next);
            allFired.await(50, TimeUnit.MILLISECONDS);
        }
        assertTrue(allFired.await(20, TimeUnit.SECONDS), "not fired: " + allFired.getCount());
        long periodicBefore = periodicRuns.get();
        CountDownLatch morePeriodic = new CountDownLatch(1);
        view.owner("probe").scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(5), e -> {
            if (periodicRuns.get() > periodicBefore + 100) {
                morePeriodic.countDown();
            }
        });
        assertTrue(morePeriodic.await(20, TimeUnit.SECONDS), "periodic timers stopped after the swaps");

        core.release(view);
        core.swapTo(null);
        ((WheelTimerEngine) engines.get(0)).shutdown();
        ((ScheduledTimerEngine) engines.get(1)).shutdown();
        for (int i = 0; i < count; i++) {
            assertEquals(1, runs.get(i), "timer " + i + " ran " + runs.get(i) + " times");
        }
        assertTrue(core.swaps() >= 20);
    }

    /**
     * One worker of the old engine is held by a handler that ignores interrupts; other owners' events fell due behind
     * it in that engine. After the swap and the old engine's shutdown (whose grace for running handlers is short here)
     * those events run on the new engine, and so do later events of every owner, the slow one's once it returns. The
     * old engine has a slack of 500 ms, so that all 21 events fall due in one batch: its only worker takes the slow
     * one's run, and the other owners' runs wait in its ready queue behind it (with exact deadlines, events due while
     * the only worker is busy stay in the wheel, and the swap's drain moves them).
     */
    @Test
    @Timeout(30)
    void workQueuedBehindASlowHandlerMovesToTheNewEngine() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        WheelTimerEngine old = WheelTimerEngine.started(1, 0, 1000, 500_000);
        core.swapTo(old);
        BundleTimerView view = core.newView("slow-swap");
        CountDownLatch slowStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TimerOwner slow = view.owner("slow");
        slow.schedule(Duration.ofMillis(20), e -> {
            slowStarted.countDown();
            for (; ; ) {
                try {
                    release.await();
                    return;
                } catch (InterruptedException ignored) {
                    // a handler that will not be hurried
                }
            }
        });
        int others = 20;
        CountDownLatch queuedRan = new CountDownLatch(others);
        for (int i = 0; i < others; i++) {
            view.owner("other-" + i).schedule(Duration.ofMillis(20), e -> queuedRan.countDown());
        }
        assertTrue(slowStarted.await(10, TimeUnit.SECONDS));
        org.awaitility.Awaitility.await().until(() -> old.expired() >= others + 1); // all handed to the old workers
        assertEquals(others, queuedRan.getCount(), "the only old worker is busy");

        WheelTimerEngine next = WheelTimerEngine.started(2);
        core.swapTo(next);
        old.shutdown(Duration.ofMillis(50));
        assertTrue(queuedRan.await(10, TimeUnit.SECONDS), "owners queued in the old engine never ran: " + queuedRan);
        CountDownLatch laterRan = new CountDownLatch(others);
        for (int i = 0; i < others; i++) {
            view.owner("other-" + i).schedule(Duration.ofMillis(1), e -> laterRan.countDown());
        }
        assertTrue(laterRan.await(10, TimeUnit.SECONDS), "events after the swap did not run: " + laterRan);
        CountDownLatch slowLater = new CountDownLatch(1);
        slow.schedule(Duration.ZERO, e -> slowLater.countDown());
        release.countDown();
        assertTrue(slowLater.await(10, TimeUnit.SECONDS), "the slow owner's next event did not run");
        core.release(view);
        core.swapTo(null);
        next.shutdown();
    }

    /**
     * A handler that replaces its own engine (an operator job that updates the timer provider: the front's swap and
     * the old engine's deactivation run on that handler's worker). The shutdown must not wait out its grace for the
     * handler that called it, nor interrupt it; other owners' timers go on in the new engine; and the old engine's
     * worker ends once the handler has returned.
     */
    @ParameterizedTest(name = "old engine: {0}")
    @ValueSource(strings = {"wheel", "heap"})
    @Timeout(30)
    void aHandlerThatSwapsAndShutsDownItsOwnEngineNeitherWaitsForItselfNorLosesTimers(String oldEngine)
            throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        TimerEngine old = "wheel".equals(oldEngine) ? WheelTimerEngine.started(2) : ScheduledTimerEngine.started(2);
        WheelTimerEngine next = WheelTimerEngine.started(2);
        core.swapTo(old);
        BundleTimerView view = core.newView("self-stop");
        AtomicLong periodicRuns = new AtomicLong();
        for (int i = 0; i < 20; i++) {
            view.owner("periodic-" + i)
                    .scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(5), e -> periodicRuns.incrementAndGet());
        }
        AtomicLong stopNanos = new AtomicLong(-1);
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch stopped = new CountDownLatch(1);
        view.owner("operator").schedule(Duration.ofMillis(20), e -> {
            handlerThread.set(Thread.currentThread());
            long start = System.nanoTime();
            core.swapTo(next);
            if (old instanceof WheelTimerEngine wheel) { // the default grace: 10 s for running handlers
                wheel.shutdown();
            } else {
                ((ScheduledTimerEngine) old).shutdown();
            }
            stopNanos.set(System.nanoTime() - start);
            interrupted.set(Thread.currentThread().isInterrupted());
            stopped.countDown();
        });

        assertTrue(stopped.await(20, TimeUnit.SECONDS), "the handler's swap and shutdown returned");
        assertTrue(
                stopNanos.get() < TimeUnit.SECONDS.toNanos(5),
                "the shutdown waited for the handler that called it: " + stopNanos.get() + " ns");
        assertTrue(!interrupted.get(), "the shutdown interrupted the handler that called it");
        long after = periodicRuns.get();
        org.awaitility.Awaitility.await("periodic timers go on in the new engine")
                .atMost(Duration.ofSeconds(10))
                .until(() -> periodicRuns.get() > after + 200);
        org.awaitility.Awaitility.await("the old engine's worker ends after the handler")
                .atMost(Duration.ofSeconds(10))
                .until(() -> !handlerThread.get().isAlive());
        core.release(view);
        core.swapTo(null);
        next.shutdown();
    }
}
