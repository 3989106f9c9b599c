package org.rouse.api.internal.timer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.timer.TimerOwner;

/** While no engine is present the standby fires timers on time, exactly once, and it has no thread otherwise. */
class StandbyTimerEngineTest {

    /**
     * A standby that polled (OpenSim polled its script events every 100 ms) would fire the 40 timers due in the gap,
     * 5 ms apart, up to 100 ms late: half of them later than this bound, and its median lateness at about 50 ms. An
     * exact wake-up is late by the park's overshoot. One stall of the standby's thread (a GC pause, a loaded 2-core
     * machine) can make the few timers due during it late, so a few may exceed the bound, not the median.
     */
    private static final long BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** The median lateness allowed in the gap: a poller's would be about 50 ms. */
    private static final long MEDIAN_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    @Test
    @Timeout(30)
    void oneShotsDueWhileNoEngineIsPresentFireOnTimeAndExactlyOnce() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        StandbyTimerEngine standby = core.dispatch().standby();
        ThreadPerTimerEngine first = new ThreadPerTimerEngine();
        ThreadPerTimerEngine second = new ThreadPerTimerEngine();
        try {
            core.swapTo(first);
            assertEquals(null, standby.dispatcherThread(), "no standby thread while an engine is present");
            BundleTimerView view = core.newView("standby-test");
            TimerOwner owner = view.owner("gap");
            CountDownLatch warm = new CountDownLatch(1); // the handler path's classes are loaded before measuring
            owner.schedule(Duration.ZERO, e -> warm.countDown());
            assertTrue(warm.await(10, TimeUnit.SECONDS));

            int moved = 20; // armed before the gap, due in it: they move from the engine to the standby
            int armedInGap = 20; // armed and due during the gap
            int afterGap = 20; // armed during the gap, due after it: they move from the standby to the next engine
            int total = moved + armedInGap + afterGap;
            AtomicIntegerArray runs = new AtomicIntegerArray(total);
            AtomicLongArray lateness = new AtomicLongArray(total);
            CountDownLatch dueInGap = new CountDownLatch(moved + armedInGap);
            CountDownLatch dueAfterGap = new CountDownLatch(afterGap);
            for (int i = 0; i < moved; i++) {
                schedule(owner, i, Duration.ofMillis(150 + 5 * i), runs, lateness, dueInGap);
            }

            core.swapTo(null); // the engine service leaves, as during a provider bundle update
            first.close();
            assertEquals("none", core.dispatch().engineName());
            for (int i = moved; i < moved + armedInGap; i++) {
                schedule(owner, i, Duration.ofMillis(20 + 5 * (i - moved)), runs, lateness, dueInGap);
            }
            for (int i = moved + armedInGap; i < total; i++) {
                schedule(owner, i, Duration.ofSeconds(60), runs, lateness, dueAfterGap);
            }
            assertTrue(dueInGap.await(10, TimeUnit.SECONDS), "timers due with no engine did not fire in the gap");
            Thread standbyThread = standby.dispatcherThread();
            assertTrue(standbyThread != null, "the standby dispatched them on its own thread");
            long[] late = new long[moved + armedInGap];
            for (int i = 0; i < late.length; i++) {
                late[i] = lateness.get(i);
            }
            Arrays.sort(late);
            String lates = "lateness in the gap, sorted, µs: "
                    + Arrays.toString(Arrays.stream(late).map(n -> n / 1_000).toArray());
            assertTrue(late[late.length / 2] <= MEDIAN_BOUND_NANOS, lates);
            assertTrue(late[late.length - 1 - late.length / 10] <= BOUND_NANOS, "more than a tenth late; " + lates);
            assertTrue(late[late.length - 1] <= TimeUnit.SECONDS.toNanos(1), lates);

            core.swapTo(second); // the engine is back: the standby is drained and stops
            assertEquals(afterGap, second.armedCount(), "the later timers moved to the new engine");
            assertEquals(null, standby.dispatcherThread(), "the standby stops when an engine arrives");
            await().atMost(Duration.ofSeconds(10)).until(() -> !standbyThread.isAlive());
            owner.close(); // cancels the later timers in the new engine
            assertEquals(0, second.armedCount(), "cancelled timers leave the new engine");
            for (int i = 0; i < moved + armedInGap; i++) {
                assertEquals(1, runs.get(i), "runs of one-shot " + i);
            }
            for (int i = moved + armedInGap; i < total; i++) {
                assertEquals(0, runs.get(i), "runs of cancelled one-shot " + i);
            }
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    @Timeout(30)
    void laterTimersFireExactlyOnceThroughRepeatedGaps() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        ThreadPerTimerEngine current = new ThreadPerTimerEngine();
        try {
            core.swapTo(current);
            TimerOwner owner = core.newView("gaps-test").owner("gaps");
            int count = 400;
            AtomicIntegerArray runs = new AtomicIntegerArray(count);
            AtomicLongArray lateness = new AtomicLongArray(count);
            CountDownLatch fired = new CountDownLatch(count);
            for (int i = 0; i < count; i++) {
                schedule(owner, i, Duration.ofMillis(i), runs, lateness, fired);
            }
            for (int swap = 0; swap < 8 && fired.getCount() > 0; swap++) {
                core.swapTo(null);
                fired.await(20, TimeUnit.MILLISECONDS); // let some fall due on the standby
                current.close();
                current = new ThreadPerTimerEngine();
                core.swapTo(current);
                fired.await(20, TimeUnit.MILLISECONDS);
            }
            assertTrue(fired.await(10, TimeUnit.SECONDS), "not fired: " + fired.getCount());
            for (int i = 0; i < count; i++) {
                assertEquals(1, runs.get(i), "runs of one-shot " + i);
            }
        } finally {
            current.close();
        }
    }

    private static void schedule(
            TimerOwner owner,
            int index,
            Duration delay,
            AtomicIntegerArray runs,
            AtomicLongArray lateness,
            CountDownLatch fired) {
        owner.schedule(delay, e -> {
            lateness.set(index, e.lateness().toNanos());
            if (runs.incrementAndGet(index) == 1) {
                fired.countDown();
            }
        });
    }
}
