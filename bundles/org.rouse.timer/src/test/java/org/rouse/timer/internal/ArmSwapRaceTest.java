package org.rouse.timer.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerState;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;

/**
 * An arm that read the active engine before a swap, arms into it after the swap's drain and is held until that
 * engine has shut down: the timer must still fire, once.
 */
class ArmSwapRaceTest {

    @Test
    @Timeout(30)
    void anArmIntoAWheelThatIsDrainedAndThenShutDownStillFires() throws Exception {
        WheelTimerEngine old = WheelTimerEngine.started(1);
        raceAnArmAgainstASwapAndAShutdown(old, old::shutdown);
    }

    @Test
    @Timeout(30)
    void anArmIntoAHeapEngineThatIsDrainedAndThenShutDownStillFires() throws Exception {
        ScheduledTimerEngine old = ScheduledTimerEngine.started(1);
        raceAnArmAgainstASwapAndAShutdown(old, old::shutdown);
    }

    private static void raceAnArmAgainstASwapAndAShutdown(TimerEngine old, Runnable shutdownOld) throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        GatedEngine gated = new GatedEngine(old);
        core.swapTo(gated);
        WheelTimerEngine next = WheelTimerEngine.started(1);
        try {
            BundleTimerView view = core.newView("race-test");
            TimerOwner owner = view.owner("racer");
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch fired = new CountDownLatch(1);
            AtomicReference<Timer> timer = new AtomicReference<>();
            gated.holdNextArm();
            Thread armer = new Thread(
                    () -> timer.set(owner.schedule(Duration.ofMillis(20), e -> {
                        runs.incrementAndGet();
                        fired.countDown();
                    })),
                    "armer");
            armer.start();

            assertTrue(gated.reached.await(10, TimeUnit.SECONDS), "the armer never reached the old engine");
            core.swapTo(next); // drains the old engine: still empty, the armer has not armed yet
            gated.proceed.countDown(); // the armer arms into the drained (and so accepting) old engine
            assertTrue(gated.armed.await(10, TimeUnit.SECONDS), "the armer never armed");
            shutdownOld.run(); // the old engine shuts down with the armer's entry in it
            gated.resume.countDown(); // the armer sees the swap and finds the entry gone from the old engine
            armer.join(TimeUnit.SECONDS.toMillis(10));

            assertTrue(fired.await(10, TimeUnit.SECONDS), "the timer armed across the swap never fired");
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.get().state() == TimerState.FIRED);
            assertEquals(1, runs.get(), "runs of the one-shot");
            assertEquals(0, next.armedCount(), "nothing left armed in the new engine");
            core.release(view);
        } finally {
            core.swapTo(null);
            next.shutdown();
        }
    }

    /** Delegates to a real engine, but holds the next arm before and after it reaches that engine. */
    static final class GatedEngine extends ForwardingTimerEngine {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        final CountDownLatch armed = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        private final AtomicBoolean hold = new AtomicBoolean();

        GatedEngine(TimerEngine delegate) {
            super("gated", delegate);
        }

        void holdNextArm() {
            hold.set(true);
        }

        @Override
        public boolean arm(TimerEntry entry) {
            if (!hold.compareAndSet(true, false)) {
                return delegate.arm(entry);
            }
            reached.countDown();
            TestThreads.awaitUninterruptibly(proceed);
            boolean accepted = delegate.arm(entry);
            armed.countDown();
            TestThreads.awaitUninterruptibly(resume);
            return accepted;
        }
    }
}
