package org.rouse.api.internal.lock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.rouse.api.internal.HealthFinding;
import org.rouse.config.ConfigCheck;

/**
 * The lock health check's thresholds and their logic, without OSGi or Felix HC: judges the active engine and each
 * live lock's longest sampled wait over the recent window ({@link LockFrontCore#recentSnapshot}).
 *
 * <pre>{@code
 * LockHealth health = LockHealth.from(config, new ConfigCheck(LockHealthCheck.PID)); // null if rejected
 * List<HealthFinding> findings = health.evaluate(core.engineName(), core.recentSnapshot(now, health.windowNanos()));
 * }</pre>
 *
 * @param waitWarnNanos WARN for a lock whose longest recent wait reaches this
 * @param windowNanos the window
 */
record LockHealth(long waitWarnNanos, long windowNanos) {

    static final LockHealth DEFAULTS = new LockHealth(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.SECONDS.toNanos(60));

    /** At most this many locks are named; the rest are counted. */
    static final int MAX_NAMED = 10;

    /** Validates {@code config}; returns {@code null} after recording every problem in {@code check}. */
    static LockHealth from(LockHealthConfig config, ConfigCheck check) {
        double warnMs = check.inRange("wait.warn.ms", config.wait_warn_ms(), 0.001, 3_600_000);
        long windowS = check.inRange("wait.window.seconds", config.wait_window_seconds(), 1, 3_600);
        if (!check.passed()) {
            return null;
        }
        return new LockHealth(Math.round(warnMs * 1e6), TimeUnit.SECONDS.toNanos(windowS));
    }

    /** Judges the lock front: {@code engine} is {@code "none"} while the built-in mutex stands in. */
    List<HealthFinding> evaluate(String engine, List<LockFrontCore.LockSnapshot> recent) {
        List<HealthFinding> findings = new ArrayList<>();
        if ("none".equals(engine)) {
            findings.add(HealthFinding.warn("no lock engine: every lock uses the built-in fallback mutex (no"
                    + " strategy); start or update the org.rouse.lock bundle; see rouse:locks"));
        } else {
            findings.add(HealthFinding.ok("lock engine " + engine + ", " + recent.size() + " live locks"));
        }
        List<LockFrontCore.LockSnapshot> slow = new ArrayList<>();
        for (LockFrontCore.LockSnapshot lock : recent) {
            if (lock.statistics().longestWaitNanos() >= waitWarnNanos) {
                slow.add(lock);
            }
        }
        slow.sort(Comparator.comparingLong(
                        (LockFrontCore.LockSnapshot l) -> l.statistics().longestWaitNanos())
                .reversed());
        for (LockFrontCore.LockSnapshot lock : slow.subList(0, Math.min(MAX_NAMED, slow.size()))) {
            findings.add(HealthFinding.warn(String.format(
                    Locale.ROOT,
                    "lock '%s' (strategy %s): longest wait %.3f ms in the last %d s reached %.3f ms (%d contended"
                            + " acquisitions); see rouse:contended",
                    lock.name(),
                    lock.strategy(),
                    lock.statistics().longestWaitNanos() / 1e6,
                    TimeUnit.NANOSECONDS.toSeconds(windowNanos),
                    waitWarnNanos / 1e6,
                    lock.statistics().contendedAcquisitions())));
        }
        if (slow.size() > MAX_NAMED) {
            findings.add(HealthFinding.warn((slow.size() - MAX_NAMED) + " more locks waited at least "
                    + String.format(Locale.ROOT, "%.3f", waitWarnNanos / 1e6) + " ms; see rouse:contended"));
        }
        return findings;
    }
}
