package org.rouse.jobs.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The whiteboard's own settings; the jobs' schedules come from their service properties. */
@ObjectClassDefinition(
        id = JobWhiteboard.PID,
        name = "Rouse whiteboard jobs",
        description = "Runs Runnable and Callable services that carry the Sling/Karaf scheduler.* properties on the"
                + " Rouse timer service.")
@interface JobsConfig {

    @AttributeDefinition(
            name = "Threads",
            description = "Threads that run jobs at once; further due runs wait for one. Idle threads end after"
                    + " 30 s. Range 1 to 1024.")
    int threads() default JobWhiteboard.DEFAULT_THREADS;
}
