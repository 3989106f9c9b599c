package org.rouse.api.internal.timer;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.rouse.stats.Percentiles;

/**
 * Timer lateness as an HdrHistogram: every sample since creation, 3 significant digits, from any thread.
 *
 * <p>Implementation notes: recording threads write to a {@link Recorder} (wait-free, no allocation once sized);
 * a snapshot swaps out its interval histogram and adds it to {@link #total} under this object's monitor, so
 * percentiles cover all samples, not a window, at 3-digit precision (0.1 %), and memory stays bounded.
 */
final class LatenessHistogram {

    private final Recorder recorder = new Recorder(3);
    /** All samples taken out of the recorder so far; guarded by this. */
    private final Histogram total = new Histogram(3);
    /** How many times {@link #reset()} ran; guarded by this (a window mark taken before a reset is void after it). */
    private long resets;
    /** Reused interval histogram; guarded by this. */
    private Histogram interval;

    /** Records one lateness; negative values count as zero. */
    void record(long nanos) {
        recorder.recordValue(Math.max(0, nanos));
    }

    synchronized Percentiles snapshot() {
        return percentiles(drain());
    }

    /** Adds every sample so far to {@code sum} (to merge several views' lateness). */
    synchronized void addTo(Histogram sum) {
        sum.add(drain());
    }

    /** Every sample so far as its recorded buckets (for {@link LatenessWindow}'s differences). */
    synchronized LatenessWindow.Buckets buckets() {
        return LatenessWindow.Buckets.of(drain(), resets);
    }

    /** Forgets every sample. */
    synchronized void reset() {
        recorder.reset();
        total.reset();
        resets++;
    }

    /** Moves the recorder's samples into {@link #total} and returns it; called under this object's monitor. */
    private Histogram drain() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total;
    }

    /** The percentiles of {@code total}: {@link Percentiles#EMPTY} when it holds nothing. */
    static Percentiles percentiles(Histogram total) {
        long count = total.getTotalCount();
        if (count == 0) {
            return Percentiles.EMPTY;
        }
        return Percentiles.of(
                count,
                total.getValueAtPercentile(50),
                total.getValueAtPercentile(99),
                total.getValueAtPercentile(99.9),
                total.getMaxValue());
    }
}
