package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.TimerEvent;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.spi.ClockedTask;

/**
 * The clock readings an engine shares with the front's tasks ({@link ClockedTask}): the wheel engine hands a clocked
 * task the reading it took as it took the task, and the front starts a batch's first handler at that reading instead
 * of reading the clock again.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClockedTaskTest {

    @Test
    void theWheelEngineHandsAClockedTaskItsReadingInsteadOfCallingRun() throws Exception {
        WheelTimerEngine engine = WheelTimerEngine.started(1);
        try {
            AtomicInteger plainRuns = new AtomicInteger();
            CompletableFuture<long[]> seen = new CompletableFuture<>();
            long handedOver = System.nanoTime();
            engine.execute(new ClockedTask() {
                @Override
                public void run() {
                    plainRuns.incrementAndGet();
                    seen.complete(new long[] {0, 0});
                }

                @Override
                public long run(long startNanos) {
                    long entered = System.nanoTime();
                    seen.complete(new long[] {startNanos, entered});
                    return entered;
                }
            });
            long[] readings = seen.get(10, TimeUnit.SECONDS);
            assertEquals(0, plainRuns.get(), "the engine called run() and read the clock itself");
            assertTrue(readings[0] - handedOver >= 0, "the start reading was taken after the task was handed over");
            assertTrue(readings[1] - readings[0] >= 0, "the start reading was taken before the task ran");
        } finally {
            engine.shutdown();
        }
    }

    @Test
    void aTimersHandlerStartsAtTheReadingItsEngineHandedTheFrontsTask() throws Exception {
        long shift = TimeUnit.SECONDS.toNanos(10); // tells the engine's reading from one the front would take
        WheelTimerEngine wheel = WheelTimerEngine.started(1);
        ShiftedClock engine = new ShiftedClock(wheel, shift);
        TimerFrontCore core = new TimerFrontCore();
        core.swapTo(engine);
        BundleTimerView view = core.newView("clocked-test");
        try {
            CompletableFuture<Duration> lateness = new CompletableFuture<>();
            view.owner("clocked").schedule(Duration.ofMillis(1), (TimerEvent e) -> lateness.complete(e.lateness()));
            Duration late = lateness.get(10, TimeUnit.SECONDS);
            assertTrue(
                    late.toNanos() >= shift,
                    "the handler's start is the engine's reading (shifted by 10 s), not a fresh one: " + late);
            assertTrue(engine.clockedRuns.get() > 0, "the front's task is a ClockedTask");
        } finally {
            core.release(view);
            core.swapTo(null);
            wheel.shutdown();
        }
    }

    @Test
    void aLaterHandlerInTheSameBatchReadsItsOwnStart() throws Exception {
        long shift = TimeUnit.SECONDS.toNanos(10);
        // 200 ms of slack: two deadlines 1 ms apart expire in one wake-up, so one ticket runs both of the owner's runs,
        // even if the test thread is held up between the two schedule calls (with 10 ms, once the worker that the
        // first call woke took the CPU for 9 ms the second deadline fell outside the first's window)
        WheelTimerEngine wheel = WheelTimerEngine.started(
                1, WheelTimerEngine.DEFAULT_SPIN_MICROS, WheelTimerEngine.DEFAULT_TICK_MICROS, 200_000);
        ShiftedClock engine = new ShiftedClock(wheel, shift);
        TimerFrontCore core = new TimerFrontCore();
        core.swapTo(engine);
        BundleTimerView view = core.newView("clocked-batch-test");
        try {
            List<Duration> lateness = new CopyOnWriteArrayList<>();
            CountDownLatch ran = new CountDownLatch(2);
            TimerOwner owner = view.owner("clocked");
            owner.schedule(Duration.ofMillis(20), (TimerEvent e) -> {
                lateness.add(e.lateness());
                ran.countDown();
            });
            owner.schedule(Duration.ofMillis(21), (TimerEvent e) -> {
                lateness.add(e.lateness());
                ran.countDown();
            });
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            assertEquals(1, engine.clockedRuns.get(), "both runs came in one batch, under one ticket");
            assertTrue(lateness.get(0).toNanos() >= shift, "the first starts at the engine's reading: " + lateness);
            assertTrue(lateness.get(1).toNanos() < shift, "the second reads its own start: " + lateness);
        } finally {
            core.release(view);
            core.swapTo(null);
            wheel.shutdown();
        }
    }

    /** Runs the front's clocked tasks on the wheel engine's worker with a start reading {@code shift} ns ahead. */
    private static final class ShiftedClock extends ForwardingTimerEngine {
        final long shift;
        final AtomicInteger clockedRuns = new AtomicInteger();

        ShiftedClock(WheelTimerEngine wheel, long shift) {
            super("shifted-clock", wheel);
            this.shift = shift;
        }

        @Override
        public void execute(Runnable task) {
            if (task instanceof ClockedTask clocked) {
                delegate.execute(() -> {
                    clockedRuns.incrementAndGet();
                    clocked.run(System.nanoTime() + shift);
                });
            } else {
                delegate.execute(task);
            }
        }
    }
}
