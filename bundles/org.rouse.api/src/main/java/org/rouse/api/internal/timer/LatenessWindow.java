package org.rouse.api.internal.timer;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.WeakHashMap;
import org.HdrHistogram.Histogram;
import org.rouse.stats.Percentiles;

/**
 * Timer lateness of the recent past, derived when it is asked for: the difference between the views' cumulative
 * lateness histograms ({@link LatenessHistogram}, which the statistics keep anyway) now and at a mark this object took
 * at an earlier {@link #recent} call, no more than the window ago. A handler start records nothing here.
 *
 * <p>What a call covers: from the oldest mark that is at most {@link #windowNanos()} old to now. Marks are taken by
 * the calls themselves, at most one per {@value #SLICES}th of the window, so a caller that asks at least that often
 * sees between 5/6 of the window and all of it. A caller that asks less often sees since its previous call (longer
 * than the window: there is no mark in between), and the first call sees since this object was created. {@link
 * Recent#spanNanos()} says which span a result covers.
 *
 * <pre>{@code
 * LatenessWindow window = new LatenessWindow(TimeUnit.SECONDS.toNanos(60), System.nanoTime());
 * Recent recent = window.recent(System.nanoTime(), views);   // views: every live view's LatenessHistogram
 * long p99 = recent.lateness().p99Nanos();
 * }</pre>
 *
 * <p>Thread-safe: calls are serialized on this object's monitor; each reads a view's histogram under that histogram's
 * monitor, as a JMX read does.
 */
final class LatenessWindow {

    /*
     * Implementation notes.
     *
     * Sources. The difference of two cumulative HdrHistograms, bucket by bucket, as ConsoleHistory.difference does
     * for its one-second points; two generations of marks taken by the check itself, as LockFrontCore's recent marks
     * do for lock waits, here a ring of up to SLICES + 1 marks so that what a check sees is at most one window old.
     *
     * Layout. `marks`, oldest first: each holds the time it was taken and, per view (weak keys: a released view's
     * histogram goes with it), that view's recorded buckets at the time (value and count, in ascending order, sparse:
     * only buckets that hold samples). A difference iterates the view's recorded buckets now and walks the mark's
     * arrays beside them.
     *
     * Invariants. Every mark but the newest is at most a window old after a call (older ones can never again be the
     * oldest mark within the window); marks are at least a slice apart, so there are at most SLICES + 1. There is
     * always a mark: the constructor takes an empty one.
     *
     * Per view: a view not in the base mark (created after it) counts whole; a view reset since the mark (rouse:timers
     * reset or JMX resetStatistics; told by the histogram's reset count, not by its total, which may have grown past
     * the mark's again) counts everything since the reset. A released view's samples leave with it.
     *
     * Costs. Nothing on the handler path. Per call: one drain of every view's Recorder (as a JMX read does), one walk
     * of every view's recorded buckets (a few hundred at most for lateness from microseconds to seconds at 3 digits),
     * and when a mark is taken, two long arrays per view of that size. Memory: at most SLICES + 1 marks of those.
     */

    /** The window is marked at most once per this fraction of it. */
    static final int SLICES = 6;

    private static final int DIGITS = 3;

    /** The marks, oldest first, never empty; guarded by this. */
    private final ArrayDeque<Mark> marks = new ArrayDeque<>();
    /** The window length in ns; written by {@link #resize}, read by {@link #recent}. */
    private volatile long windowNanos;

    /** A window of {@code windowNanos} whose first mark, empty, is taken at {@code nowNanos}. */
    LatenessWindow(long windowNanos, long nowNanos) {
        this.windowNanos = windowNanos;
        marks.add(new Mark(nowNanos, new WeakHashMap<>()));
    }

    /**
     * The lateness of {@code views}' handler starts over the recent window that ends at {@code nowNanos}, and takes a
     * mark of them if the newest is a slice old.
     */
    synchronized Recent recent(long nowNanos, Iterable<LatenessHistogram> views) {
        long window = windowNanos;
        Mark base = null;
        for (Mark mark : marks) {
            if (nowNanos - mark.nanos <= window) {
                base = mark;
                break;
            }
        }
        if (base == null) {
            base = marks.getLast();
        }
        Histogram sum = new Histogram(DIGITS);
        Map<LatenessHistogram, Buckets> now = new WeakHashMap<>();
        for (LatenessHistogram view : views) {
            Buckets buckets = view.buckets();
            now.put(view, buckets);
            buckets.addSince(base.views.get(view), sum);
        }
        if (nowNanos - marks.getLast().nanos >= Math.max(1, window / SLICES)) {
            marks.addLast(new Mark(nowNanos, now));
        }
        for (Iterator<Mark> it = marks.iterator(); it.hasNext() && marks.size() > 1; ) {
            if (nowNanos - it.next().nanos > window) {
                it.remove();
            }
        }
        return new Recent(LatenessHistogram.percentiles(sum), nowNanos - base.nanos);
    }

    /** The window length in ns. */
    long windowNanos() {
        return windowNanos;
    }

    /** Makes the window {@code windowNanos} long; the marks stay, since each knows when it was taken. */
    void resize(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    /** How many marks are kept now (at most {@value #SLICES} + 1). */
    synchronized int marks() {
        return marks.size();
    }

    /**
     * The lateness of the recent past.
     *
     * @param lateness the percentiles of the handler starts since the base mark
     * @param spanNanos how long ago the base mark was taken: the span {@code lateness} covers
     */
    record Recent(Percentiles lateness, long spanNanos) {}

    /** Every view's buckets at one time. */
    private record Mark(long nanos, Map<LatenessHistogram, Buckets> views) {}

    /**
     * One view's recorded buckets at one time, ascending: {@code values[i]} is a bucket's highest equivalent value,
     * {@code counts[i]} its count (never zero). Immutable once built.
     */
    static final class Buckets {
        private final long[] values;
        private final long[] counts;
        /** How many resets the histogram had seen: a different count means everything now is since a reset. */
        private final long resets;

        private Buckets(long[] values, long[] counts, long resets) {
            this.values = values;
            this.counts = counts;
            this.resets = resets;
        }

        /** The recorded buckets of {@code histogram}, which has been reset {@code resets} times. */
        static Buckets of(Histogram histogram, long resets) {
            int n = 0;
            long[] values = new long[16];
            long[] counts = new long[16];
            for (org.HdrHistogram.HistogramIterationValue v : histogram.recordedValues()) {
                if (n == values.length) {
                    values = java.util.Arrays.copyOf(values, n * 2);
                    counts = java.util.Arrays.copyOf(counts, n * 2);
                }
                values[n] = v.getValueIteratedTo();
                counts[n] = v.getCountAtValueIteratedTo();
                n++;
            }
            return new Buckets(java.util.Arrays.copyOf(values, n), java.util.Arrays.copyOf(counts, n), resets);
        }

        /** Adds to {@code sum} what this holds beyond {@code before} (null: everything), per the invariants above. */
        void addSince(Buckets before, Histogram sum) {
            boolean whole = before == null || resets != before.resets;
            int j = 0;
            for (int i = 0; i < values.length; i++) {
                long count = counts[i];
                if (!whole) {
                    while (j < before.values.length && before.values[j] < values[i]) {
                        j++;
                    }
                    if (j < before.values.length && before.values[j] == values[i]) {
                        count -= before.counts[j];
                    }
                }
                if (count > 0) {
                    sum.recordValueWithCount(values[i], count);
                }
            }
        }
    }
}
