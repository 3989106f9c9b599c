package org.rouse.api.internal.lock;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.IntCountsHistogram;
import org.rouse.stats.Percentiles;

/**
 * The wait and hold time histograms of one contended lock.
 *
 * <p>Implementation notes: two HdrHistograms (2 significant digits, 100 ns to 60 s, int counts: about 12 KB each),
 * made only when a lock is first contended, so the many locks that never are cost nothing. They are written only by
 * the lock's holder (the facade lock orders the writers, so no synchronization is needed). Monitoring threads copy
 * them without stopping writers: a copy racing a write may miss that one sample, which a monitoring snapshot
 * tolerates (the arrays never resize, so a racy copy is never out of bounds).
 */
final class LockHistograms {

    static final long LOWEST_NANOS = 100L;
    static final long HIGHEST_NANOS = 60_000_000_000L;

    /** Written by the lock holder. */
    private final IntCountsHistogram waits = newHistogram();
    /** Written by the lock holder. */
    private final IntCountsHistogram holds = newHistogram();

    static IntCountsHistogram newHistogram() {
        return new IntCountsHistogram(LOWEST_NANOS, HIGHEST_NANOS, 2);
    }

    void recordWait(long nanos) {
        waits.recordValue(clamp(nanos));
    }

    void recordHold(long nanos) {
        holds.recordValue(clamp(nanos));
    }

    /** A copy of the waits, for a snapshot. */
    AbstractHistogram waits() {
        return waits.copy();
    }

    /** A copy of the holds, for a snapshot. */
    AbstractHistogram holds() {
        return holds.copy();
    }

    /** The percentiles of {@code histogram} (null: none). */
    static Percentiles percentiles(AbstractHistogram histogram) {
        if (histogram == null || histogram.getTotalCount() == 0) {
            return Percentiles.EMPTY;
        }
        return Percentiles.of(
                histogram.getTotalCount(),
                histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9),
                histogram.getMaxValue());
    }

    /** {@code a} plus {@code b} as a new histogram; either may be null. */
    static AbstractHistogram sum(AbstractHistogram a, AbstractHistogram b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        AbstractHistogram sum = newHistogram();
        sum.add(a);
        sum.add(b);
        return sum;
    }

    /**
     * {@code now} minus {@code base} as a new histogram ({@code base} an earlier copy of the same histogram); either
     * may be null. A count that a racy copy makes smaller than its base is taken as zero.
     */
    static AbstractHistogram difference(AbstractHistogram now, AbstractHistogram base) {
        if (now == null || base == null) {
            return now;
        }
        AbstractHistogram difference = newHistogram();
        AbstractHistogram.AllValues values = now.allValues();
        for (org.HdrHistogram.HistogramIterationValue value : values) {
            long count = value.getCountAtValueIteratedTo() - base.getCountAtValue(value.getValueIteratedTo());
            if (count > 0) {
                difference.recordValueWithCount(value.getValueIteratedTo(), count);
            }
        }
        return difference;
    }

    private static long clamp(long nanos) {
        return Math.max(LOWEST_NANOS, Math.min(nanos, HIGHEST_NANOS));
    }
}
