package org.rouse.api.internal.selector;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Thresholds of the selector service's health check ({@link SelectorHealthCheck}); validated by
 * {@link SelectorHealth#from}. The default, 100 queued upcalls, is 1 % of the engine's default
 * {@code pool.queue.capacity} (10,000): well before upcalls are refused, and more than a burst of one upcall for each
 * of the default 64 workers.
 */
@ObjectClassDefinition(
        id = SelectorHealthCheck.PID,
        name = "Rouse selector health check",
        description = "Thresholds of the Felix health check of the selector service (tags rouse, rouse-selector)."
                + " Invalid values are rejected as a whole and the last good configuration stays in force.")
@interface SelectorHealthConfig {

    @AttributeDefinition(
            name = "Queued upcalls WARN",
            description = "WARN when this many upcalls wait for a pool worker. Range 1 to 1000000.")
    int queue_warn() default 100;
}
