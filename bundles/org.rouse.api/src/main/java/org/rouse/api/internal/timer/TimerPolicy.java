package org.rouse.api.internal.timer;

import java.util.concurrent.TimeUnit;
import org.rouse.config.ConfigCheck;

/** A validated, immutable timer front configuration. */
record TimerPolicy(long minimumIntervalNanos, int maxPendingPerBundle, long slowHandlerNanos) {

    static final TimerPolicy DEFAULTS = new TimerPolicy(TimeUnit.MILLISECONDS.toNanos(1), 1_000_000, 100_000_000L);

    /** Validates {@code config}; returns {@code null} after recording problems in {@code check}. */
    static TimerPolicy from(TimerFrontConfig config, ConfigCheck check) {
        double minimumMs = check.inRange("minimum.interval.ms", config.minimum_interval_ms(), 0, 60_000);
        long maxPending = check.inRange("max.pending.per.bundle", config.max_pending_per_bundle(), 1, 100_000_000);
        long slowMs = check.inRange("slow.handler.threshold.ms", config.slow_handler_threshold_ms(), 1, 3_600_000);
        if (!check.passed()) {
            return null;
        }
        return new TimerPolicy(
                Math.round(minimumMs * 1_000_000d), (int) maxPending, TimeUnit.MILLISECONDS.toNanos(slowMs));
    }

    /** The period to use for a requested one, and whether it was raised. */
    long clamp(long periodNanos) {
        return Math.max(periodNanos, minimumIntervalNanos);
    }
}
