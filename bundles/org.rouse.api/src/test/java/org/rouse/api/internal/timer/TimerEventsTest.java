package org.rouse.api.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.events.Recorded;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;

/** org.rouse.TimerLate and org.rouse.EngineSwap (timer) in a live JFR recording, driven by real timers. */
class TimerEventsTest {

    /** Busy for {@code nanos}: a slow handler (it is the load, not a wait for a result). */
    private static void work(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @Test
    @Timeout(60)
    void aTimerHeldUpBehindASlowHandlerIsRecordedWithItsLatenessAndAnOnTimeOneIsNot() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        ThreadPerTimerEngine engine = new ThreadPerTimerEngine();
        try (Recorded late = new Recorded("org.rouse.TimerLate", "latenessThreshold", "25 ms")) {
            core.swapTo(engine);
            TimerOwner owner = core.newView("events.test").owner("late-owner");
            CountDownLatch done = new CountDownLatch(1);
            // the owner's handlers run one at a time: the second timer waits behind the first's 120 ms
            owner.schedule(Duration.ZERO, e -> work(TimeUnit.MILLISECONDS.toNanos(120)));
            long[] lateness = new long[1];
            Timer held = owner.schedule(Duration.ofMillis(1), e -> {
                lateness[0] = e.lateness().toNanos();
                done.countDown();
            });
            assertTrue(done.await(10, TimeUnit.SECONDS));

            RecordedEvent event = late.await(e -> held.toString().equals(e.getString("timer")));
            assertEquals("late-owner", event.getString("owner"));
            long recorded = event.getDuration("lateness").toNanos();
            assertEquals(lateness[0], recorded, "the event carries the lateness the handler saw");
            assertTrue(recorded >= TimeUnit.MILLISECONDS.toNanos(25), "at or over the threshold: " + recorded);
            for (RecordedEvent e : late.events()) { // the first handler started on time: under the threshold
                assertTrue(
                        e.getDuration("lateness").toNanos() >= TimeUnit.MILLISECONDS.toNanos(25),
                        "an event under the threshold was recorded: " + e);
            }
        } finally {
            core.swapTo(null);
            engine.close();
        }
    }

    @Test
    @Timeout(60)
    void aSwapIsRecordedWithItsEnginesPauseAndMovedTimers() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        ThreadPerTimerEngine engine = new ThreadPerTimerEngine();
        try (Recorded swaps = new Recorded("org.rouse.EngineSwap")) {
            TimerOwner owner = core.newView("events.test").owner("waiting");
            for (int i = 0; i < 3; i++) {
                owner.schedule(Duration.ofMinutes(10), e -> {});
            }
            core.swapTo(engine); // from the standby ("none") to a real engine, moving the three pending timers

            RecordedEvent event = swaps.await(
                    e -> "timer".equals(e.getString("service")) && engine.name().equals(e.getString("to")));
            assertEquals("none", event.getString("from"));
            assertEquals(3L, event.getLong("moved"));
            assertEquals(core.lastSwapPauseNanos(), event.getDuration("pause").toNanos());
            owner.close();
        } finally {
            core.swapTo(null);
            engine.close();
        }
    }
}
