package org.rouse.api.internal.lock;

import org.rouse.lock.LockStatistics;

/**
 * An immutable snapshot of lock counters.
 *
 * @param acquisitions outermost successful acquisitions
 * @param contendedAcquisitions acquisitions whose first, non-waiting attempt failed
 * @param longestWaitNanos the longest wait of a contended acquisition
 * @param swaps strategy swaps performed
 */
record LockCounts(long acquisitions, long contendedAcquisitions, long longestWaitNanos, long swaps)
        implements LockStatistics {

    static final LockCounts ZERO = new LockCounts(0, 0, 0, 0);

    /** Sums the counters; the longest wait is the larger of the two. */
    LockCounts plus(LockStatistics other) {
        return new LockCounts(
                acquisitions + other.acquisitions(),
                contendedAcquisitions + other.contendedAcquisitions(),
                Math.max(longestWaitNanos, other.longestWaitNanos()),
                swaps + other.swaps());
    }
}
