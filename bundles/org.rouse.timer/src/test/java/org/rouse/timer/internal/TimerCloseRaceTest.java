package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;

/** {@code Timer.reschedule} racing the end of its owner, on real threads. */
class TimerCloseRaceTest {

    /** About 8 s; without the re-check in {@code reschedule}, 2 to 4 rounds in 20,000 leave a timer armed. */
    private static final int ROUNDS = 30_000;

    /**
     * Each round takes a timer that is not armed (a cancelled one, or a one-shot that has fired), then reschedules it
     * on one thread while another closes its owner (or releases the whole view). Rescheduled timers are due at once in
     * two rounds of three (a handler that starts after close returned is counted) and in an hour in the others (a
     * timer left armed after close shows in the engine and in the pending count). A handler's start is the event's start
     * time ({@code deadline + lateness}), which the front reads before it checks that the owner is open.
     */
    @Test
    @Timeout(120)
    void aRescheduleRacingCloseNeitherRunsAHandlerNorLeavesATimerArmedAfterCloseReturned() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        WheelTimerEngine engine = WheelTimerEngine.started(2);
        core.swapTo(engine);
        long[] closeReturnedAt = new long[ROUNDS];
        AtomicLongArray lastStart = new AtomicLongArray(ROUNDS);
        AtomicInteger pendingAfterClose = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(2);
        CyclicBarrier end = new CyclicBarrier(2);
        AtomicReference<Timer> racing = new AtomicReference<>();
        AtomicReference<Duration> delay = new AtomicReference<>();
        Thread rescheduler = new Thread(
                () -> {
                    try {
                        for (int round = 0; round < ROUNDS; round++) {
                            start.await();
                            try {
                                racing.get().reschedule(delay.get());
                            } catch (IllegalStateException closed) {
                                // lost the race: the owner was closed first
                            }
                            end.await();
                        }
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                },
                "rescheduler");
        rescheduler.setDaemon(true);
        rescheduler.start();
        for (int round = 0; round < ROUNDS; round++) {
            boolean releaseView = round % 4 >= 2;
            BundleTimerView view = core.newView("race-" + round);
            TimerOwner owner = view.owner("owner");
            int index = round;
            Timer timer;
            if (round % 2 == 0) {
                timer = owner.schedule(Duration.ofHours(1), e -> {});
                timer.cancel();
            } else {
                CountDownLatch fired = new CountDownLatch(1);
                timer = owner.schedule(Duration.ZERO, e -> {
                    long started = e.deadlineNanos() + e.lateness().toNanos();
                    lastStart.accumulateAndGet(index, started, Math::max);
                    fired.countDown();
                });
                fired.await();
            }
            racing.set(timer);
            delay.set(round % 3 == 0 ? Duration.ofHours(1) : Duration.ZERO);
            start.await(10, TimeUnit.SECONDS);
            if (releaseView) {
                core.release(view);
            } else {
                owner.close();
            }
            closeReturnedAt[round] = System.nanoTime();
            end.await(10, TimeUnit.SECONDS);
            if (round % 3 == 0) {
                // Due in an hour: nothing but a timer left armed can hold the pending count above zero.
                if (view.statistics().pending() != 0) {
                    pendingAfterClose.incrementAndGet();
                }
            } else if (view.statistics().pending() != 0) {
                // Due at once: the engine's thread may have taken the arming and not yet counted it out.
                org.awaitility.Awaitility.await()
                        .atMost(Duration.ofSeconds(10))
                        .until(() -> view.statistics().pending() == 0);
            }
            core.release(view);
        }
        rescheduler.join(TimeUnit.SECONDS.toMillis(10));
        // Every rescheduled timer was due at once or never: wait until the engine has handed every due one over.
        org.awaitility.Awaitility.await().until(() -> engine.armedCount() == 0 || pendingAfterClose.get() > 0);
        CountDownLatch drained = new CountDownLatch(1);
        BundleTimerView probe = core.newView("probe");
        probe.owner("probe").schedule(Duration.ofMillis(20), e -> drained.countDown());
        drained.await(10, TimeUnit.SECONDS);
        core.swapTo(null);
        engine.shutdown();
        assertEquals(0, pendingAfterClose.get(), "rounds that left a timer pending after close returned");
        assertEquals(0, engine.armedCount(), "timers left armed in the engine");
        int lateStarts = 0;
        for (int round = 1; round < ROUNDS; round += 2) {
            if (lastStart.get(round) != 0 && lastStart.get(round) - closeReturnedAt[round] > 0) {
                lateStarts++;
            }
        }
        assertEquals(0, lateStarts, "handlers that started after close returned");
    }
}
