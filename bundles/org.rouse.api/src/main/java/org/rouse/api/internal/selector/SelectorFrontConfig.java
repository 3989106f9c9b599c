package org.rouse.api.internal.selector;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The policy every consumer of the selector service sees. */
@ObjectClassDefinition(
        id = SelectorFront.PID,
        name = "Rouse selector service",
        description = "Policy of the selector wakeup service that consuming bundles see")
@interface SelectorFrontConfig {

    @AttributeDefinition(
            name = "Registrations per bundle",
            description = "The most channels one consuming bundle may have registered at once; register() beyond it"
                    + " throws RejectedExecutionException. 1 to 10,000,000.",
            min = "1",
            max = "10000000")
    int max_registrations_per_bundle() default SelectorFront.DEFAULT_MAX_REGISTRATIONS;
}
