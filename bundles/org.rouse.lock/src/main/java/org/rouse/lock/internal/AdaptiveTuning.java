package org.rouse.lock.internal;

/**
 * The engine's tuning of {@code adaptive} locks, replaced as a whole when the configuration changes.
 *
 * @param maxSpins the most spin iterations a thread makes before it queues (the adaptive limit stays below it)
 * @param fairnessBoundNanos the fairness timer's interval: after a fair hand-off the next one is due at a random
 *     point within this many nanoseconds (on average half of it)
 */
record AdaptiveTuning(int maxSpins, long fairnessBoundNanos) {

    static final int DEFAULT_MAX_SPINS = 100;
    static final long DEFAULT_FAIRNESS_BOUND_MICROS = 1_000L;
    static final AdaptiveTuning DEFAULT = new AdaptiveTuning(DEFAULT_MAX_SPINS, DEFAULT_FAIRNESS_BOUND_MICROS * 1_000L);
}
