package org.rouse.stats;

import java.time.Duration;
import java.util.Objects;

/**
 * An immutable summary of a distribution of durations, in nanoseconds.
 *
 * <p>Instances are snapshots: they never change after they are returned, so they can be logged, compared or kept.
 * A summary of nothing has {@link #count()} zero and every percentile zero.
 *
 * <pre>{@code
 * Percentiles lateness = timers.statistics().lateness();
 * log.info("p99 lateness {} µs over {} events", lateness.p99Nanos() / 1_000, lateness.count());
 * }</pre>
 */
public final class Percentiles {

    /** The summary of an empty distribution. */
    public static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0);

    private final long count;
    private final long p50Nanos;
    private final long p99Nanos;
    private final long p999Nanos;
    private final long maxNanos;

    private Percentiles(long count, long p50Nanos, long p99Nanos, long p999Nanos, long maxNanos) {
        this.count = count;
        this.p50Nanos = p50Nanos;
        this.p99Nanos = p99Nanos;
        this.p999Nanos = p999Nanos;
        this.maxNanos = maxNanos;
    }

    /**
     * Returns a summary with the given values.
     *
     * @throws IllegalArgumentException if a value is negative or the percentiles are not ordered
     *     ({@code p50 <= p99 <= p999 <= max})
     */
    public static Percentiles of(long count, long p50Nanos, long p99Nanos, long p999Nanos, long maxNanos) {
        if (count < 0 || p50Nanos < 0) {
            throw new IllegalArgumentException(
                    "count and percentiles must be >= 0: count=" + count + ", p50=" + p50Nanos);
        }
        if (p50Nanos > p99Nanos || p99Nanos > p999Nanos || p999Nanos > maxNanos) {
            throw new IllegalArgumentException("percentiles must be ordered p50 <= p99 <= p99.9 <= max: " + p50Nanos
                    + ", " + p99Nanos + ", " + p999Nanos + ", " + maxNanos);
        }
        return count == 0 && maxNanos == 0 ? EMPTY : new Percentiles(count, p50Nanos, p99Nanos, p999Nanos, maxNanos);
    }

    /** How many values were recorded. */
    public long count() {
        return count;
    }

    /** The median, in nanoseconds. */
    public long p50Nanos() {
        return p50Nanos;
    }

    /** The 99th percentile, in nanoseconds. */
    public long p99Nanos() {
        return p99Nanos;
    }

    /** The 99.9th percentile, in nanoseconds. */
    public long p999Nanos() {
        return p999Nanos;
    }

    /** The largest value recorded, in nanoseconds. */
    public long maxNanos() {
        return maxNanos;
    }

    /** The largest value recorded, as a {@link Duration}. */
    public Duration max() {
        return Duration.ofNanos(maxNanos);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Percentiles p
                && count == p.count
                && p50Nanos == p.p50Nanos
                && p99Nanos == p.p99Nanos
                && p999Nanos == p.p999Nanos
                && maxNanos == p.maxNanos;
    }

    @Override
    public int hashCode() {
        return Objects.hash(count, p50Nanos, p99Nanos, p999Nanos, maxNanos);
    }

    @Override
    public String toString() {
        return String.format(
                "n=%d p50=%.3fms p99=%.3fms p99.9=%.3fms max=%.3fms",
                count, p50Nanos / 1e6, p99Nanos / 1e6, p999Nanos / 1e6, maxNanos / 1e6);
    }
}
