package org.rouse.api.internal.lock;

import org.HdrHistogram.AbstractHistogram;
import org.rouse.lock.LockStatistics;
import org.rouse.stats.Percentiles;

/**
 * An immutable snapshot of lock counters.
 *
 * @param acquisitions outermost successful acquisitions
 * @param contendedAcquisitions acquisitions whose first, non-waiting attempt failed
 * @param longestWaitNanos the longest wait of a contended acquisition
 * @param swaps strategy swaps performed
 * @param spins spin iterations of waiting threads (engine-side)
 * @param parks parks of waiting threads (engine-side)
 * @param handoffs direct hand-offs to a waiting thread (engine-side)
 * @param waits contended waits in ns, or null; a private copy, never written after the snapshot
 * @param holds sampled hold times in ns, or null; a private copy
 */
record LockCounts(
        long acquisitions,
        long contendedAcquisitions,
        long longestWaitNanos,
        long swaps,
        long spins,
        long parks,
        long handoffs,
        AbstractHistogram waits,
        AbstractHistogram holds)
        implements LockStatistics {

    static final LockCounts ZERO = new LockCounts(0, 0, 0, 0, 0, 0, 0, null, null);

    @Override
    public Percentiles waitNanos() {
        return LockHistograms.percentiles(waits);
    }

    @Override
    public Percentiles holdNanos() {
        return LockHistograms.percentiles(holds);
    }

    /** Sums the counters and merges the histograms; the longest wait is the larger of the two. */
    LockCounts plus(LockStatistics statistics) {
        LockCounts other = (LockCounts) statistics; // every facade of this bundle reports a LockCounts
        return new LockCounts(
                acquisitions + other.acquisitions,
                contendedAcquisitions + other.contendedAcquisitions,
                Math.max(longestWaitNanos, other.longestWaitNanos),
                swaps + other.swaps,
                spins + other.spins,
                parks + other.parks,
                handoffs + other.handoffs,
                LockHistograms.sum(waits, other.waits),
                LockHistograms.sum(holds, other.holds));
    }
}
