package org.rouse.examples.scripts.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** How many scripts run and how often their timers fire. */
@ObjectClassDefinition(
        id = ScriptHost.PID,
        name = "Rouse example: script host",
        description = "Runs LSL-style scripts that call llSetTimerEvent in state_entry and measure the time between"
                + " timer() events like llGetAndResetTime().")
@interface ScriptHostConfig {

    @AttributeDefinition(name = "Scripts", description = "How many scripts run. Range 1 to 100000.")
    int scripts() default 711;

    @AttributeDefinition(
            name = "Timer interval (s)",
            description = "The llSetTimerEvent interval of every script, subject to the timer service's minimum"
                    + " interval. Range 0.0001 to 3600.")
    double timer_interval_s() default 0.05;

    @AttributeDefinition(
            name = "Report interval (s)",
            description = "How often the host prints its summary line. Range 0.1 to 3600.")
    double report_interval_s() default 1.0;
}
