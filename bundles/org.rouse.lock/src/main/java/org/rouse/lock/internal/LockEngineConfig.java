package org.rouse.lock.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Tuning of the lock strategies. */
@ObjectClassDefinition(
        id = StrategyLockEngine.PID,
        name = "Rouse lock engine",
        description = "Tuning of the lock strategies offered by the Rouse lock engine (jdk, fair, spin-yield).")
@interface LockEngineConfig {

    @AttributeDefinition(
            name = "spin-yield: spins before yielding",
            description = "How many times a spin-yield lock retries with a CPU spin hint before it starts calling "
                    + "Thread.yield() on every retry (OpenSIPS FAST_LOCK). Range 1..1000000.",
            min = "1",
            max = "1000000")
    int spin_yield_spins() default StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS;
}
