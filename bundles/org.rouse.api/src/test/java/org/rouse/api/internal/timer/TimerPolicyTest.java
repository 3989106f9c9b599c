package org.rouse.api.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;

/** The timer front's configurable policy: clamping, the per-bundle cap, and all-or-nothing reconfiguration. */
@Timeout(30)
class TimerPolicyTest {

    private final TimerFrontCore core = new TimerFrontCore();
    private final ThreadPerTimerEngine engine = new ThreadPerTimerEngine();

    @AfterEach
    void stop() {
        core.releaseAll();
        core.swapTo(null);
        engine.close();
    }

    @Test
    void periodsBelowTheMinimumIntervalAreClampedObservably() {
        assertTrue(core.configure(config(50, 1000, 100)));
        BundleTimerView view = core.newView("a");
        Timer timer = view.owner("o").scheduleAtFixedRate(Duration.ofHours(1), Duration.ofMillis(1), e -> {});
        assertEquals(Duration.ofMillis(50), timer.period());
        assertEquals(1, view.statistics().clamped());
        assertEquals(Duration.ofMillis(50), view.minimumInterval());
        Timer oneShot = view.owner("o").schedule(Duration.ofMillis(1), e -> {});
        assertEquals(Duration.ZERO, oneShot.period(), "one-shot delays are not clamped");
    }

    @Test
    void theCapRejectsOneBundleWithoutAffectingAnother() throws Exception {
        core.swapTo(engine);
        assertTrue(core.configure(config(1, 3, 100)));
        BundleTimerView greedy = core.newView("greedy");
        BundleTimerView other = core.newView("other");
        TimerOwner owner = greedy.owner("o");
        for (int i = 0; i < 3; i++) {
            owner.schedule(Duration.ofHours(1), e -> {});
        }
        RejectedExecutionException rejected =
                assertThrows(RejectedExecutionException.class, () -> owner.schedule(Duration.ofHours(1), e -> {}));
        assertTrue(rejected.getMessage().contains("max.pending.per.bundle is 3"), rejected.getMessage());
        CountDownLatch fired = new CountDownLatch(1);
        other.owner("o").schedule(Duration.ZERO, e -> fired.countDown());
        assertTrue(fired.await(10, TimeUnit.SECONDS), "another bundle still schedules");
    }

    @Test
    void anInvalidConfigurationIsRejectedWholeAndTheLastGoodOneStays() {
        assertTrue(core.configure(config(20, 1000, 100)));
        assertFalse(core.configure(config(-5, 0, 100)));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(20), core.policy().minimumIntervalNanos());
        assertEquals(1000, core.policy().maxPendingPerBundle());
    }

    @Test
    void theRejectionNamesEachPropertyValueAndRange() {
        org.rouse.config.ConfigCheck check = new org.rouse.config.ConfigCheck(TimerFront.PID);
        TimerPolicy.from(config(70_000, 0, 100), check);
        String message = check.rejection();
        assertTrue(
                message.contains("minimum.interval.ms = 70000.0 is outside the allowed range [0.0, 60000.0]"), message);
        assertTrue(message.contains("max.pending.per.bundle = 0 is outside the allowed range [1, 100000000]"), message);
        assertTrue(message.contains(TimerFront.PID), message);
    }

    @Test
    void withoutAnEngineTimersFireOnTheStandbyAndLaterOnesMoveToTheEngineThatArrives() throws Exception {
        BundleTimerView view = core.newView("early");
        CountDownLatch firedWithoutEngine = new CountDownLatch(1);
        view.owner("o").schedule(Duration.ZERO, e -> firedWithoutEngine.countDown());
        assertEquals("none", view.statistics().engine());
        assertTrue(firedWithoutEngine.await(10, TimeUnit.SECONDS));

        CountDownLatch firedOnEngine = new CountDownLatch(1);
        view.owner("o").schedule(Duration.ofMillis(200), e -> firedOnEngine.countDown());
        core.swapTo(engine);
        assertTrue(firedOnEngine.await(10, TimeUnit.SECONDS));
        assertEquals(engine.name(), view.statistics().engine());
    }

    static TimerFrontConfig config(double minimumIntervalMs, int maxPending, long slowMs) {
        return new TimerFrontConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return TimerFrontConfig.class;
            }

            @Override
            public double minimum_interval_ms() {
                return minimumIntervalMs;
            }

            @Override
            public int max_pending_per_bundle() {
                return maxPending;
            }

            @Override
            public long slow_handler_threshold_ms() {
                return slowMs;
            }
        };
    }
}
