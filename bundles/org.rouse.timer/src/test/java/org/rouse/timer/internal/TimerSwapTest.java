package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.spi.TimerEngine;

/** Swapping engines under load: every one-shot fires exactly once, periodic timers go on. */
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
}
