package org.rouse.benchmarks.measure;

import org.HdrHistogram.Histogram;

/**
 * A distribution of durations in nanoseconds (HdrHistogram, 3 significant digits, up to one minute), read back in
 * microseconds.
 *
 * <p>Not thread-safe: exactly one thread records into an instance, and others read it only after a happens-before
 * edge (a join, a volatile read of a completion count, the end of the round). Values below zero are recorded as zero.
 *
 * <pre>{@code
 * LatencyHistogram latency = new LatencyHistogram();
 * long start = System.nanoTime();
 * LockSupport.parkNanos(50_000);
 * latency.recordNanos(System.nanoTime() - start - 50_000);
 * double p99 = latency.percentileMicros(99.0);
 * }</pre>
 */
public final class LatencyHistogram {

    private static final long HIGHEST_TRACKABLE_NANOS = 60_000_000_000L;

    private final Histogram histogram = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);

    /** Records one duration; negative values count as zero, values above one minute as one minute. */
    public void recordNanos(long nanos) {
        histogram.recordValue(Math.max(0, Math.min(nanos, HIGHEST_TRACKABLE_NANOS)));
    }

    /** Adds every value of an HdrHistogram of nanoseconds (values up to one minute) to this histogram. */
    public void addAll(Histogram nanos) {
        histogram.add(nanos);
    }

    /** Adds every value recorded in {@code other} to this histogram. */
    public void add(LatencyHistogram other) {
        histogram.add(other.histogram);
    }

    /** How many values were recorded. */
    public long count() {
        return histogram.getTotalCount();
    }

    /**
     * The value at a percentile, in microseconds.
     *
     * @param percentile between 0 and 100, e.g. {@code 99.9}
     * @throws IllegalArgumentException if {@code percentile} is outside [0, 100]
     */
    public double percentileMicros(double percentile) {
        if (!(percentile >= 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be within [0, 100]: " + percentile);
        }
        return histogram.getValueAtPercentile(percentile) / 1_000.0;
    }

    /** The largest value recorded, in microseconds (zero when empty). */
    public double maxMicros() {
        return histogram.getMaxValue() / 1_000.0;
    }
}
