package org.rouse.lock.internal;

/**
 * The engine's tuning of {@code adaptive} locks, replaced as a whole when the configuration changes.
 *
 * @param maxSpins the most spin iterations a thread waiting for an adaptive mutex makes before it queues (the adaptive
 *     limit stays below it); 0 also turns off the fixed spins of an adaptive read-write lock's word
 * @param fairnessBoundNanos the fairness timer's interval: after a fair hand-off the next one is due at a random
 *     point within this many nanoseconds (on average half of it)
 */
record AdaptiveTuning(int maxSpins, long fairnessBoundNanos) {

    /**
     * 5, not the 100 it was until 2026-12-02: with two threads on two cores a waiter that spins longer takes the lock
     * from a holder that would have taken it again, so every acquisition moves the lock's cache lines between the
     * cores (lock-contention-2 with work: 0.54x ReentrantLock at 100, 1.11-1.12x at 5; without work 0.69x and
     * 0.82-0.93x); at 16 and 64 threads, where a waiter rarely spins because one is parked, side by side the two
     * limits did not differ (docs/performance.md, 2026-12-02).
     */
    static final int DEFAULT_MAX_SPINS = 5;

    static final long DEFAULT_FAIRNESS_BOUND_MICROS = 1_000L;
    static final AdaptiveTuning DEFAULT = new AdaptiveTuning(DEFAULT_MAX_SPINS, DEFAULT_FAIRNESS_BOUND_MICROS * 1_000L);
}
