package org.rouse.api.internal.lock;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The lock policy consumers see: which strategy each lock gets. */
@ObjectClassDefinition(
        id = LockFrontCore.PID,
        name = "Rouse lock front",
        description = "Chooses the locking strategy of every lock handed out by the Rouse lock service. A change "
                + "swaps the strategy of live locks without breaking mutual exclusion.")
@interface LockFrontConfig {

    @AttributeDefinition(
            name = "Default strategy",
            description =
                    "The strategy of locks that no pattern matches, adaptive (default), fair, jdk or spin-yield. Must be "
                            + "offered by the active lock engine.")
    String strategy() default StrategyPolicy.DEFAULT_STRATEGY;

    @AttributeDefinition(
            name = "Strategy per lock name",
            description = "Entries 'glob=strategy' (e.g. 'keyspace*=fair'); '*' matches any characters and '?' one. "
                    + "The first entry matching a lock's name wins; stripes match by their set's name.")
    String[] strategy_patterns() default {};
}
