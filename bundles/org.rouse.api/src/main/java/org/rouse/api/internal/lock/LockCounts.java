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

    /**
     * These counts since {@code base} was taken (an earlier snapshot of the same lock): counters subtracted,
     * histograms too. The longest wait since then is the largest sampled wait since then.
     */
    LockCounts minus(LockCounts base) {
        AbstractHistogram w = LockHistograms.difference(waits, base.waits);
        return new LockCounts(
                Math.max(0, acquisitions - base.acquisitions),
                Math.max(0, contendedAcquisitions - base.contendedAcquisitions),
                w == null || w.getTotalCount() == 0 ? 0 : w.getMaxValue(),
                Math.max(0, swaps - base.swaps),
                Math.max(0, spins - base.spins),
                Math.max(0, parks - base.parks),
                Math.max(0, handoffs - base.handoffs),
                w,
                LockHistograms.difference(holds, base.holds));
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
