package org.rouse.api.internal;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.rouse.stats.Percentiles;

/**
 * Records durations from many threads cheaply and summarizes the most recent ones.
 */
public final class LatencyRecorder {

    /*
     * Implementation notes.
     *
     * Layout. A ring of the last CAPACITY samples, written with one getAndIncrement and one array store per sample (no
     * locks, no allocation).
     *
     * Costs. Percentiles are computed over the ring when a snapshot is taken; count and max cover every sample ever
     * recorded. A sample written concurrently with a snapshot may be seen or not; that is fine for monitoring.
     */

    static final int CAPACITY = 8192;

    /** Next ring slot; incremented by every recording thread. */
    private final AtomicLong written = new AtomicLong();
    /** The ring; slot {@code i % CAPACITY} written by whichever thread drew {@code i}. */
    private final AtomicLongArray ring = new AtomicLongArray(CAPACITY);
    /** Largest sample; raised with CAS by recording threads. */
    private final AtomicLong max = new AtomicLong();

    /** Records one duration; negative values count as zero. */
    public void record(long nanos) {
        long value = Math.max(0, nanos);
        long slot = written.getAndIncrement();
        ring.lazySet((int) (slot & (CAPACITY - 1)), value);
        long m = max.get();
        while (value > m && !max.compareAndSet(m, value)) {
            m = max.get();
        }
    }

    /**
     * Forgets every sample: later snapshots cover only what is recorded after it. A sample recorded concurrently may
     * be kept or lost.
     */
    public void reset() {
        written.set(0);
        max.set(0);
    }

    /** A summary of the recent samples. */
    public Percentiles snapshot() {
        long count = written.get();
        int n = (int) Math.min(count, CAPACITY);
        if (n == 0) {
            return Percentiles.EMPTY;
        }
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = ring.get(i);
        }
        Arrays.sort(values);
        long maximum = Math.max(max.get(), values[n - 1]);
        return Percentiles.of(count, at(values, 0.50), at(values, 0.99), at(values, 0.999), maximum);
    }

    private static long at(long[] sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
