package org.rouse.timer.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The timer engine's machinery. A change re-creates the engine, which the timer front handles as a hot swap. */
@ObjectClassDefinition(
        id = ScheduledTimerEngine.PID,
        name = "Rouse timer engine",
        description = "Threads of the timer engine. Changing them swaps in a new engine; pending timers move to it.")
@interface TimerEngineConfig {

    @AttributeDefinition(
            name = "Worker threads",
            description = "Threads that run timer handlers; one owner uses at most one at a time. Range 1 to 1024.")
    int worker_threads() default 4;
}
