package org.rouse.api.internal.timer;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** What a consumer of the timer service sees; the engine's own machinery is configured by its own PID. */
@ObjectClassDefinition(
        id = TimerFront.PID,
        name = "Rouse timer service",
        description = "Limits and policy of the timer service that consumers bind to. Invalid values are rejected"
                + " as a whole and the last good configuration stays in force.")
@interface TimerFrontConfig {

    @AttributeDefinition(
            name = "Minimum interval (ms)",
            description = "Periods and fixed delays shorter than this are raised to it, like OpenSim's"
                    + " MinTimerInterval; one-shot delays are not clamped. 0 turns clamping off. Range 0 to 60000.")
    double minimum_interval_ms() default 1.0;

    @AttributeDefinition(
            name = "Pending timers per bundle",
            description = "How many timers one consuming bundle may have waiting at once; beyond it scheduling throws"
                    + " RejectedExecutionException. Range 1 to 100000000.")
    int max_pending_per_bundle() default 1_000_000;

    @AttributeDefinition(
            name = "Slow handler threshold (ms)",
            description = "A handler that runs longer is logged with its owner and timer, and counted."
                    + " Range 1 to 3600000.")
    long slow_handler_threshold_ms() default 100;
}
