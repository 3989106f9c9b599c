package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.rouse.api.internal.HealthFinding;
import org.rouse.config.ConfigCheck;
import org.rouse.stats.Percentiles;

/**
 * The timer health check's thresholds and their logic, without OSGi or Felix HC: a validated, immutable
 * configuration that judges a snapshot of the timer front.
 *
 * <pre>{@code
 * TimerHealth health = TimerHealth.from(config, new ConfigCheck(TimerHealthCheck.PID)); // null if rejected
 * List<HealthFinding> findings = health.evaluate(engineName, recentLateness, spanNanos, owners);
 * }</pre>
 *
 * @param lateWarnNanos WARN at this p99 lateness
 * @param lateCriticalNanos CRITICAL at this p99 lateness; at least {@code lateWarnNanos}
 * @param windowNanos the lateness window
 * @param stuckNanos CRITICAL while a handler has run this long
 */
record TimerHealth(long lateWarnNanos, long lateCriticalNanos, long windowNanos, long stuckNanos) {

    static final TimerHealth DEFAULTS = new TimerHealth(
            TimeUnit.MILLISECONDS.toNanos(20),
            TimeUnit.MILLISECONDS.toNanos(200),
            TimeUnit.SECONDS.toNanos(60),
            TimeUnit.SECONDS.toNanos(10));

    /** Validates {@code config}; returns {@code null} after recording every problem in {@code check}. */
    static TimerHealth from(TimerHealthConfig config, ConfigCheck check) {
        double warnMs = check.inRange("lateness.p99.warn.ms", config.lateness_p99_warn_ms(), 0.001, 3_600_000);
        double criticalMs =
                check.inRange("lateness.p99.critical.ms", config.lateness_p99_critical_ms(), 0.001, 3_600_000);
        long windowS = check.inRange("lateness.window.seconds", config.lateness_window_seconds(), 1, 3_600);
        long stuckMs = check.inRange("stuck.handler.ms", config.stuck_handler_ms(), 1, 86_400_000);
        if (check.passed() && criticalMs < warnMs) {
            check.problem("lateness.p99.critical.ms", criticalMs, "at least lateness.p99.warn.ms = " + format(warnMs));
        }
        if (!check.passed()) {
            return null;
        }
        return new TimerHealth(
                Math.round(warnMs * 1e6),
                Math.round(criticalMs * 1e6),
                TimeUnit.SECONDS.toNanos(windowS),
                TimeUnit.MILLISECONDS.toNanos(stuckMs));
    }

    /**
     * Judges the timer front: the engine ({@code "none"} while the standby engine stands in), the lateness of the
     * window and every owner (those running a handler now are checked for being stuck).
     */
    List<HealthFinding> evaluate(String engine, Percentiles recent, List<Owner.OwnerSnapshot> owners) {
        return evaluate(engine, recent, windowNanos, owners);
    }

    /**
     * As {@link #evaluate(String, Percentiles, List)} for a lateness that covers the last {@code spanNanos} (what the
     * window's marks gave: at most the window while the check runs at least once a sixth of it, more when it does
     * not), which the finding names.
     */
    List<HealthFinding> evaluate(String engine, Percentiles recent, long spanNanos, List<Owner.OwnerSnapshot> owners) {
        List<HealthFinding> findings = new ArrayList<>();
        if ("none".equals(engine)) {
            findings.add(HealthFinding.warn("no timer engine: timers fire on the built-in standby engine (one"
                    + " thread); start or update the org.rouse.timer bundle; see rouse:timers"));
        } else {
            findings.add(HealthFinding.ok("timer engine " + engine));
        }
        String lateness = String.format(
                Locale.ROOT,
                "timer lateness p99 %s ms over the last %s s (%d handler starts, max %s ms)",
                format(recent.p99Nanos() / 1e6),
                format(Math.round(spanNanos / 1e8) / 10d),
                recent.count(),
                format(recent.maxNanos() / 1e6));
        if (recent.count() > 0 && recent.p99Nanos() >= lateCriticalNanos) {
            findings.add(HealthFinding.critical(lateness + " reached the CRITICAL threshold "
                    + format(lateCriticalNanos / 1e6) + " ms; see rouse:late and rouse:timers"));
        } else if (recent.count() > 0 && recent.p99Nanos() >= lateWarnNanos) {
            findings.add(HealthFinding.warn(lateness + " reached the WARN threshold " + format(lateWarnNanos / 1e6)
                    + " ms; see rouse:late and rouse:timers"));
        } else {
            findings.add(HealthFinding.ok(lateness));
        }
        List<Owner.OwnerSnapshot> stuck = new ArrayList<>();
        for (Owner.OwnerSnapshot o : owners) {
            if (o.runningTimer() != null && o.runningNanos() >= stuckNanos) {
                stuck.add(o);
            }
        }
        stuck.sort(Comparator.comparingLong(Owner.OwnerSnapshot::runningNanos).reversed());
        for (Owner.OwnerSnapshot o : stuck) {
            findings.add(HealthFinding.critical(String.format(
                    Locale.ROOT,
                    "timer handler stuck: bundle %s, owner '%s', timer %s running for %s ms (threshold %s ms);"
                            + " see rouse:running",
                    o.consumer(),
                    o.owner(),
                    o.runningTimer(),
                    format(o.runningNanos() / 1e6),
                    format(stuckNanos / 1e6))));
        }
        return findings;
    }

    /** A number of milliseconds with up to 3 decimals and no trailing zeros. */
    static String format(double ms) {
        return java.math.BigDecimal.valueOf(Math.round(ms * 1000) / 1000d)
                .stripTrailingZeros()
                .toPlainString();
    }
}
