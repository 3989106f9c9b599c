package org.rouse.api.internal.timer;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.rouse.stats.Percentiles;

/**
 * Timer lateness of the recent past: the samples of the last {@code window}, in {@value #SLICES} time slices, from any
 * thread, 2 significant digits. The health check reads it; {@link LatenessHistogram} keeps everything since start.
 *
 * <pre>{@code
 * LatenessWindow recent = new LatenessWindow(TimeUnit.SECONDS.toNanos(60));
 * recent.record(start - deadline, start);         // on every handler start
 * Percentiles lastMinute = recent.snapshot(System.nanoTime());
 * }</pre>
 */
final class LatenessWindow {

    /*
     * Implementation notes.
     *
     * Layout. The window is cut into slices of width `sliceNanos` = window / SLICES; slice number e = floor(now /
     * sliceNanos) lives in slots[e mod (SLICES + 1)], each a Recorder (wait-free for recording threads) plus the
     * histogram of what readers have drained from it. A snapshot merges the slots holding the last SLICES slice
     * numbers, so it covers between (SLICES - 1) and SLICES slice widths: 50 to 60 s of a 60 s window. The extra
     * slot is the one being reused next, so a reader never merges a slot that a recorder is resetting for a new slice.
     *
     * Invariants. A slot's `epoch` only grows, and is written under the slot's monitor after its recorder and
     * histogram were reset, so a recorder that sees the current epoch records into a slot that already belongs to it.
     * A recorder that read `epoch` just before another thread rolled the slot on may put its one sample into the new
     * slice or lose it in the reset; a sample whose slice is older than the slot's (a thread descheduled for a whole
     * window) is dropped.
     *
     * Costs. Recording: one division, a volatile read and Recorder.recordValue (two atomic increments on a shared
     * phaser and a histogram slot); once per slice width, one thread also resets a slot under its monitor. Memory:
     * SLICES + 1 slots of three 2-digit auto-resizing histograms (a few KiB each for millisecond values).
     *
     * Sources: HdrHistogram's Recorder (interval histograms swapped under a WriterReaderPhaser); a ring of time
     * slices as in Dropwizard Metrics' SlidingTimeWindowReservoir, with a histogram per slice instead of samples.
     */

    /** Slices the window is cut into. */
    static final int SLICES = 6;

    private static final int DIGITS = 2;

    private final Slot[] slots = new Slot[SLICES + 1];
    /** Width of one slice in ns; written by {@link #resize} under this object's monitor, read by every recorder. */
    private volatile long sliceNanos;

    LatenessWindow(long windowNanos) {
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot();
        }
        sliceNanos = sliceWidth(windowNanos);
    }

    /** Records one lateness (negative counts as zero) of a handler that started at {@code nowNanos}. */
    void record(long latenessNanos, long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, sliceNanos);
        Slot slot = slots[(int) Math.floorMod(epoch, slots.length)];
        long current = slot.epoch;
        if (current != epoch) {
            if (current > epoch || !slot.rollTo(epoch)) {
                return;
            }
        }
        slot.recorder.recordValue(Math.max(0, latenessNanos));
    }

    /** The percentiles of the samples of the window that ends at {@code nowNanos}. */
    Percentiles snapshot(long nowNanos) {
        long width = sliceNanos;
        long newest = Math.floorDiv(nowNanos, width);
        Histogram all = new Histogram(DIGITS);
        for (Slot slot : slots) {
            slot.drainInto(all, newest - SLICES + 1, newest);
        }
        return LatenessHistogram.percentiles(all);
    }

    /** The window length in ns (a multiple of {@link #SLICES} slices). */
    long windowNanos() {
        return sliceNanos * SLICES;
    }

    /** Makes the window {@code windowNanos} long and forgets every sample (their slices had the old width). */
    synchronized void resize(long windowNanos) {
        long width = sliceWidth(windowNanos);
        if (width == sliceNanos) {
            return;
        }
        sliceNanos = width;
        for (Slot slot : slots) {
            slot.clear();
        }
    }

    private static long sliceWidth(long windowNanos) {
        return Math.max(1, windowNanos / SLICES);
    }

    /** One slice's samples. */
    private static final class Slot {
        /** The slice number this slot holds; only grows, written under this slot's monitor after the reset. */
        volatile long epoch = Long.MIN_VALUE;
        /** Samples not yet drained; written by any recording thread. */
        final Recorder recorder = new Recorder(DIGITS);
        /** Samples drained so far; guarded by this slot's monitor. */
        private final Histogram drained = new Histogram(DIGITS);
        /** Reused interval histogram; guarded by this slot's monitor. */
        private Histogram interval;

        /** Moves the slot on to slice {@code next}; false if it already holds a later one. */
        synchronized boolean rollTo(long next) {
            if (epoch > next) {
                return false;
            }
            if (epoch < next) {
                recorder.reset();
                drained.reset();
                epoch = next;
            }
            return true;
        }

        /** Adds this slot's samples to {@code sum} if its slice is within {@code [oldest, newest]}. */
        synchronized void drainInto(Histogram sum, long oldest, long newest) {
            if (epoch < oldest || epoch > newest) {
                return;
            }
            interval = recorder.getIntervalHistogram(interval);
            drained.add(interval);
            sum.add(drained);
        }

        synchronized void clear() {
            recorder.reset();
            drained.reset();
            epoch = Long.MIN_VALUE;
        }
    }
}
