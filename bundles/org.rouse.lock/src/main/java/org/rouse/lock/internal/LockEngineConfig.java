package org.rouse.lock.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Tuning of the lock strategies. */
@ObjectClassDefinition(
        id = StrategyLockEngine.PID,
        name = "Rouse lock engine",
        description =
                "Tuning of the lock strategies offered by the Rouse lock engine (adaptive, fair, jdk, spin-yield).")
@interface LockEngineConfig {

    @AttributeDefinition(
            name = "spin-yield: spins before yielding",
            description = "How many times a spin-yield lock retries with a CPU spin hint before it starts calling "
                    + "Thread.yield() on every retry (OpenSIPS FAST_LOCK). Range 1..1000000.",
            min = "1",
            max = "1000000")
    int spin_yield_spins() default StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS;

    @AttributeDefinition(
            name = "adaptive: most spins before parking",
            description = "The upper bound of an adaptive mutex's spin before a waiter parks; the spin actually used "
                    + "adapts to how long the lock is usually held (glibc's adaptive mutex). 0 parks at once. An "
                    + "adaptive read-write lock's readers and writers waiting on its word spin short fixed bounds "
                    + "instead, which 0 turns off too. Range 0..100000.",
            min = "0",
            max = "100000")
    int adaptive_spin_max() default AdaptiveTuning.DEFAULT_MAX_SPINS;

    @AttributeDefinition(
            name = "adaptive: fairness interval (µs)",
            description = "Each adaptive lock keeps a fairness timer: when it has expired, the next unlock that finds "
                    + "threads parked hands the lock directly to the longest-queued one (no barging in between) and "
                    + "re-arms the timer at a random point within this interval, so on average one fair hand-off "
                    + "happens per half interval (parking_lot, WTF::Lock). Range 10..10000000 µs.",
            min = "10",
            max = "10000000")
    long adaptive_fairness_bound_us() default AdaptiveTuning.DEFAULT_FAIRNESS_BOUND_MICROS;

    @AttributeDefinition(
            name = "adaptive: offer the read-write form (experimental)",
            description = "Experimental. Whether the engine offers 'adaptive' for read-write locks; off, it offers "
                    + "only 'jdk' (ReentrantReadWriteLock) and read-write locks use it whatever the strategy "
                    + "setting says. Off by default because with more runnable threads than CPUs the adaptive "
                    + "read-write lock is far slower than ReentrantReadWriteLock (see docs/locks.md). Live "
                    + "read-write locks move when this changes.")
    boolean adaptive_read_write() default false;
}
