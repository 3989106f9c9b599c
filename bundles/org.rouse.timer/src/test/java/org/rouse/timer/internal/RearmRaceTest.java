package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerState;

/**
 * A timer rescheduled while the engine's expiry of its arming is already under way arms the same handle again (the
 * handle is its own arming once the engine's disarm has taken the old one back), so that expiry must not take the new
 * arming for its own: the timer would fire an hour early.
 */
class RearmRaceTest {

    @Test
    @Timeout(30)
    void anExpiryUnderWayWhenItsTimerIsRescheduledNeverFiresTheNewArming() throws Exception {
        ScheduledTimerEngine engine = ScheduledTimerEngine.started(1);
        TimerFrontCore core = new TimerFrontCore();
        core.swapTo(engine);
        try {
            BundleTimerView view = core.newView("rearm-race-test");
            TimerOwner owner = view.owner("racer");
            CountDownLatch expiryStarted = new CountDownLatch(1);
            CountDownLatch rescheduled = new CountDownLatch(1);
            engine.expiryStarts = () -> { // holds the engine's expiry task before it decides anything
                expiryStarted.countDown();
                TestThreads.awaitUninterruptibly(rescheduled);
            };
            AtomicInteger runs = new AtomicInteger();
            Timer timer = owner.schedule(Duration.ZERO, e -> runs.incrementAndGet());
            assertTrue(expiryStarted.await(10, TimeUnit.SECONDS), "the engine never started the expiry");
            engine.expiryStarts = () -> {};
            timer.reschedule(Duration.ofHours(1)); // the disarm takes the first arming back: its expiry has not decided
            rescheduled.countDown();

            // the engine's one dispatcher thread runs the next expiry after the held one, and the owner runs its
            // handlers in due order: once this one has run, an early run of the timer would have run too
            CountDownLatch after = new CountDownLatch(1);
            owner.schedule(Duration.ZERO, e -> after.countDown());
            assertTrue(after.await(10, TimeUnit.SECONDS), "the owner's queue never ran the later timer");
            assertEquals(0, runs.get(), "the expiry of the rescheduled arming fired the new arming an hour early");
            assertEquals(TimerState.SCHEDULED, timer.state());
            assertTrue(timer.remaining().orElseThrow().toMinutes() >= 59);
            assertTrue(timer.cancel());
            core.release(view);
        } finally {
            core.swapTo(null);
            engine.shutdown();
        }
    }
}
