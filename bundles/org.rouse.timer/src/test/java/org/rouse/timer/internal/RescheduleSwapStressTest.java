package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerState;
import org.rouse.timer.spi.TimerEngine;

/**
 * Threads reschedule and cancel a few shared timers at random, with deadlines due within a millisecond or two, while
 * the engines are swapped every millisecond between the wheel, the heap engine and no engine at all: the paths where a
 * handle arms itself again right after a disarm, or stops doing so for good, all meet expiries in flight. No run may
 * start before the deadline of the arming it runs for, and once the threads stop, one last reschedule of each timer
 * fires it exactly once.
 */
class RescheduleSwapStressTest {

    private static final int TIMERS = 16;
    private static final int THREADS = 4;
    private static final long RACE_NANOS = TimeUnit.SECONDS.toNanos(3);

    @Test
    @Timeout(60)
    void reschedulesAndCancelsAcrossSwapsNeverFireEarlyAndTheLastArmingFiresOnce() throws Exception {
        WheelTimerEngine wheel = WheelTimerEngine.started(2);
        ScheduledTimerEngine heap = ScheduledTimerEngine.started(2);
        TimerFrontCore core = new TimerFrontCore();
        core.swapTo(wheel);
        try {
            BundleTimerView view = core.newView("reschedule-swap-stress");
            AtomicLong early = new AtomicLong();
            AtomicReference<String> firstEarly = new AtomicReference<>();
            AtomicIntegerArray lastRuns = new AtomicIntegerArray(TIMERS); // runs of the last armings, due after...
            AtomicLong lastPhase = new AtomicLong(); // ...this time (0 while racing)
            List<Timer> timers = new ArrayList<>();
            for (int i = 0; i < TIMERS; i++) {
                int index = i;
                timers.add(view.owner("owner-" + (i % 4)).schedule(Duration.ofHours(1), e -> {
                    long last = lastPhase.get();
                    if (last != 0 && e.deadlineNanos() - last >= 0) {
                        lastRuns.incrementAndGet(index);
                    }
                    long earlyBy = e.deadlineNanos() - System.nanoTime();
                    if (earlyBy > 0 || e.lateness().isNegative()) {
                        early.incrementAndGet();
                        firstEarly.compareAndSet(null, "timer " + index + " ran " + earlyBy + " ns early");
                    }
                }));
            }

            AtomicBoolean racing = new AtomicBoolean(true);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                threads.add(new Thread(
                        () -> {
                            ThreadLocalRandom random = ThreadLocalRandom.current();
                            while (racing.get()) {
                                Timer timer = timers.get(random.nextInt(TIMERS));
                                if (random.nextInt(4) == 0) {
                                    timer.cancel();
                                } else {
                                    timer.reschedule(Duration.ofNanos(random.nextLong(2_000_000)));
                                }
                            }
                        },
                        "rescheduler-" + t));
            }
            Thread swapper = new Thread(
                    () -> {
                        TimerEngine[] engines = {heap, wheel, null, heap, null, wheel};
                        for (int i = 0; racing.get(); i++) {
                            core.swapTo(engines[i % engines.length]);
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the pace of the swaps
                        }
                    },
                    "swapper");
            threads.forEach(Thread::start);
            swapper.start();
            long end = System.nanoTime() + RACE_NANOS;
            while (System.nanoTime() - end < 0 && early.get() == 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the length of the race, not a wait
            }
            racing.set(false);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            swapper.join(TimeUnit.SECONDS.toMillis(10));
            core.swapTo(wheel);
            assertEquals(0, early.get(), "runs before their deadline: " + firstEarly.get());

            // every racing arming was due within 2 ms of the race's end; the last armings are due after this
            long last = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3);
            lastPhase.set(last);
            TestThreads.letTimePass(Duration.ofNanos(last - System.nanoTime()));
            for (Timer timer : timers) {
                timer.reschedule(Duration.ofMillis(1));
            }
            for (int i = 0; i < TIMERS; i++) {
                int index = i;
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> lastRuns.get(index) > 0);
            }
            CountDownLatch after = new CountDownLatch(4); // each owner runs its handlers in due order
            for (int o = 0; o < 4; o++) {
                view.owner("owner-" + o).schedule(Duration.ofMillis(5), e -> after.countDown());
            }
            assertTrue(after.await(10, TimeUnit.SECONDS), "an owner's queue stopped");
            for (int i = 0; i < TIMERS; i++) {
                assertEquals(1, lastRuns.get(i), "runs of timer " + i + "'s last arming");
                assertEquals(TimerState.FIRED, timers.get(i).state());
            }
            assertEquals(0, early.get(), "runs before their deadline: " + firstEarly.get());
            core.release(view);
        } finally {
            core.swapTo(null);
            wheel.shutdown();
            heap.shutdown();
        }
    }
}
