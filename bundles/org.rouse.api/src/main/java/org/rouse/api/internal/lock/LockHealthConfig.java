package org.rouse.api.internal.lock;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Thresholds of the lock service's health check ({@link LockHealthCheck}); validated by {@link LockHealth#from}. The
 * default, 100 ms, is five times the 20 ms from which Rouse's {@code org.rouse.LockContended} JFR event records a
 * wait by default: a wait that long is an outage for a request, not contention to profile.
 */
@ObjectClassDefinition(
        id = LockHealthCheck.PID,
        name = "Rouse lock health check",
        description = "Thresholds of the Felix health check of the lock service (tags rouse, rouse-lock). Invalid"
                + " values are rejected as a whole and the last good configuration stays in force.")
@interface LockHealthConfig {

    @AttributeDefinition(
            name = "Longest wait WARN (ms)",
            description = "WARN for each lock whose longest sampled contended wait over the window reaches this."
                    + " Range 0.001 to 3600000.")
    double wait_warn_ms() default 100;

    @AttributeDefinition(
            name = "Wait window (s)",
            description = "The longest wait covers the recent past: from one to two windows when the check runs at"
                    + " least once a window. Range 1 to 3600.")
    long wait_window_seconds() default 60;
}
