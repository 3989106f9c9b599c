package org.rouse.api.internal.timer;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Thresholds of the timer service's health check ({@link TimerHealthCheck}); validated by {@link TimerHealth#from}.
 * The defaults: WARN at 20 ms p99 lateness (the threshold the JDK's {@code default.jfc} uses for
 * {@code jdk.JavaMonitorEnter}, and Rouse's JFR events' default), CRITICAL at 200 ms (four periods of a 50 ms LSL
 * script timer), over the last 60 s; a handler running 10 s is stuck.
 */
@ObjectClassDefinition(
        id = TimerHealthCheck.PID,
        name = "Rouse timer health check",
        description = "Thresholds of the Felix health check of the timer service (tags rouse, rouse-timer). Invalid"
                + " values are rejected as a whole and the last good configuration stays in force.")
@interface TimerHealthConfig {

    @AttributeDefinition(
            name = "Lateness p99 WARN (ms)",
            description = "WARN when the 99th percentile of handler lateness over the window reaches this."
                    + " Range 0.001 to 3600000.")
    double lateness_p99_warn_ms() default 20;

    @AttributeDefinition(
            name = "Lateness p99 CRITICAL (ms)",
            description = "CRITICAL when the 99th percentile of handler lateness over the window reaches this."
                    + " Range 0.001 to 3600000, at least the WARN threshold.")
    double lateness_p99_critical_ms() default 200;

    @AttributeDefinition(
            name = "Lateness window (s)",
            description = "The lateness percentile covers the handler starts of this recent past: between 5/6 of it"
                    + " and all of it while the check runs at least once every sixth of it, else since the previous"
                    + " check. Range 1 to 3600.")
    long lateness_window_seconds() default 60;

    @AttributeDefinition(
            name = "Stuck handler (ms)",
            description = "CRITICAL while a handler has been running this long, naming its bundle, owner and timer."
                    + " Range 1 to 86400000.")
    long stuck_handler_ms() default 10_000;
}
