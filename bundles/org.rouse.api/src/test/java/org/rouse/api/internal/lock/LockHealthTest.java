package org.rouse.api.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.HealthFinding;
import org.rouse.api.internal.HealthFinding.Level;
import org.rouse.config.ConfigCheck;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;

/** The lock health check: a lock's longest recent wait against the threshold, the window's marks, no engine. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LockHealthTest {

    private static final long S = TimeUnit.SECONDS.toNanos(1);

    private final LockFrontCore core = new LockFrontCore();
    private final LockService view = core.newView("health.bundle");

    @Test
    void aLongRecentWaitWarnsNamingTheLockUntilTheWindowPasses() throws Exception {
        LockHealth health = LockHealth.from(config(0.001, 10), new ConfigCheck("l")); // any real wait is long
        SwappableLock hot = view.lock("hot");
        view.lock("cold").lock();
        long t0 = 1_000 * S;
        assertEquals(List.of(), named(health.evaluate("e", core.recentSnapshot(t0, 10 * S))), "no wait yet");

        contendOnce(hot);
        List<HealthFinding> during = named(health.evaluate("e", core.recentSnapshot(t0 + 1 * S, 10 * S)));
        assertEquals(1, during.size(), during.toString());
        assertEquals(Level.WARN, during.get(0).level());
        String message = during.get(0).message();
        assertTrue(message.startsWith("lock 'hot' (strategy " + hot.strategy() + "): longest wait "), message);
        assertTrue(message.contains("in the last 10 s") && message.contains("see rouse:contended"), message);

        // t0 + 10 s: the mark of t0 (before the wait) becomes the base: the wait is still inside
        assertEquals(
                1,
                named(health.evaluate("e", core.recentSnapshot(t0 + 10 * S, 10 * S)))
                        .size());
        // t0 + 20 s: the base is the mark of t0 + 10 s, taken after the wait
        assertEquals(List.of(), named(health.evaluate("e", core.recentSnapshot(t0 + 20 * S, 10 * S))));
    }

    @Test
    void aWaitBelowTheThresholdIsOk() throws Exception {
        LockHealth health = LockHealth.from(config(60_000, 10), new ConfigCheck("l"));
        SwappableLock hot = view.lock("hot");
        contendOnce(hot);
        assertEquals(List.of(), named(health.evaluate("e", core.recentSnapshot(1, 10 * S))));
        assertEquals(Level.OK, HealthFinding.worst(health.evaluate("e", core.recentSnapshot(2, 10 * S))));
    }

    @Test
    void withoutAnEngineTheFallbackIsAWarning() {
        List<HealthFinding> f = LockHealth.DEFAULTS.evaluate(core.engineName(), core.recentSnapshot(1, S));
        assertEquals(Level.WARN, HealthFinding.worst(f));
        assertTrue(f.get(0).message().startsWith("no lock engine"), f.toString());
    }

    @Test
    void badValuesAreNamedAndTheLastGoodConfigurationStays() {
        ConfigCheck check = new ConfigCheck(LockHealthCheck.PID);
        assertNull(LockHealth.from(config(0, 0), check));
        assertTrue(check.rejection().contains("wait.warn.ms = 0.0 is outside the allowed range [0.001, 3600000.0]"));
        assertTrue(check.rejection().contains("wait.window.seconds = 0 is outside the allowed range [1, 3600]"));
        assertEquals(LockHealth.DEFAULTS, LockHealth.from(config(100, 60), new ConfigCheck("l")));
        LockHealthCheck component = new LockHealthCheck();
        assertTrue(component.apply(config(5, 30)));
        LockHealth good = component.health();
        assertFalse(component.apply(config(5, 4000)));
        assertSame(good, component.health());
    }

    /** The findings that name a lock. */
    private static List<HealthFinding> named(List<HealthFinding> findings) {
        return findings.stream().filter(f -> f.message().startsWith("lock '")).toList();
    }

    private static void contendOnce(SwappableLock lock) throws Exception {
        lock.lock();
        Thread waiter = new Thread(
                () -> {
                    lock.lock();
                    lock.unlock();
                },
                "health-waiter");
        waiter.setDaemon(true);
        waiter.start();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> waiter.getState() == Thread.State.WAITING);
        lock.unlock();
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive());
    }

    private static LockHealthConfig config(double warnMs, long windowS) {
        return new LockHealthConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return LockHealthConfig.class;
            }

            @Override
            public double wait_warn_ms() {
                return warnMs;
            }

            @Override
            public long wait_window_seconds() {
                return windowS;
            }
        };
    }
}
