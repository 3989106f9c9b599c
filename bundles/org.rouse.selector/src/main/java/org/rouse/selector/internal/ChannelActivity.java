package org.rouse.selector.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.rouse.selector.spi.SelectorEntry;

/**
 * How many of an engine's channels were recently active: handed to the worker pool for an upcall within the last
 * window (the pool's idle timeout). The pool keeps one worker per such channel if upcalls overlap, so a steady set of
 * connections calling back to back keeps a worker, and its watch, per connection.
 *
 * <p>{@link #recent()} is the larger of the distinct channels marked in the current window-long epoch and in the one
 * before it: a channel active at a steady rate counts once; one silent for two epochs no longer counts. It is an
 * estimate for a growth policy, never a bound anything relies on.
 */
final class ChannelActivity {

    /*
     * Implementation notes.
     *
     * Layout. `marks` maps every attached entry to the epoch in which it was last marked (added by attach, removed by
     * detach, deregister and drain, so a channel that left is never counted again once its epoch ends). The epoch is
     * System.nanoTime() / `windowNanos`. `epoch`, `current` and `previous` describe the window: the epoch being
     * counted, the distinct channels marked in it, and the count of the epoch before it (0 if that one was skipped).
     *
     * Algorithm. mark() (a loop thread, once per hand-off to the pool) reads the clock; if the epoch moved on it rolls
     * the counts under `this` (one thread rolls, the others see the new epoch); then, if the entry's recorded epoch
     * differs, it records the new one and increments `current`. Each entry is marked by the one loop it is assigned
     * to or by the worker holding it, never both at once (the hand-off between them goes through the pool's lock or
     * the loop's queue), so its record has one writer at a time. A mark racing a roll may land in the epoch just closed and be lost
     * from the new one: the channel then counts again at its next hand-off. That, and counting a channel once per
     * epoch rather than per sliding window, are the estimate's only errors.
     *
     * Costs. One nanoTime, one map lookup and two volatile reads per hand-off and per watched call; an increment once per channel per
     * epoch; a short lock once per epoch.
     */

    /** The window's length in nanoseconds; at least 1. */
    private final long windowNanos;

    /** Attached entries to the epoch they were last marked in (a one-element array, written by one thread at a time). */
    private final ConcurrentHashMap<SelectorEntry, long[]> marks = new ConcurrentHashMap<>();

    /** The epoch being counted; written under `this` by roll(), read lock-free by mark(). */
    private volatile long epoch;

    /** Distinct channels marked in `epoch`; incremented by mark(), reset by roll() under `this`. */
    private final AtomicInteger current = new AtomicInteger();

    /** Distinct channels marked in the epoch before `epoch` (0 if none); written under `this` by roll(). */
    private volatile int previous;

    ChannelActivity(long windowNanos) {
        this.windowNanos = Math.max(1, windowNanos);
        this.epoch = System.nanoTime() / this.windowNanos;
    }

    /** A channel joined the engine (attach). */
    void add(SelectorEntry entry) {
        marks.putIfAbsent(entry, new long[] {Long.MIN_VALUE});
    }

    /** A channel left the engine (detach, deregister, drain). */
    void remove(SelectorEntry entry) {
        marks.remove(entry);
    }

    /** Every channel left the engine (drain). */
    void clear() {
        marks.clear();
    }

    /**
     * Records that {@code entry} has an upcall now; called by the loop the entry is assigned to when it hands the
     * entry to the pool, or by the worker running the entry's upcalls when its watch finds the next one (never both
     * at once: the loop does not select a channel while a worker has it).
     */
    void mark(SelectorEntry entry) {
        long[] last = marks.get(entry);
        if (last == null) {
            return;
        }
        long now = System.nanoTime() / windowNanos;
        if (now != epoch) {
            roll(now);
        }
        if (last[0] != now) {
            last[0] = now;
            current.incrementAndGet();
        }
    }

    private synchronized void roll(long now) {
        long was = epoch;
        if (now - was <= 0) {
            return; // another loop rolled already
        }
        previous = now - was == 1 ? current.get() : 0;
        current.set(0);
        epoch = now;
    }

    /** Channels handed to the pool in this epoch or the one before, whichever had more; lock-free. */
    int recent() {
        long now = System.nanoTime() / windowNanos;
        if (now - epoch > 1) {
            return 0; // nothing marked for two epochs
        }
        if (now != epoch) {
            return current.get(); // the epoch just ended is "the one before" now
        }
        return Math.max(current.get(), previous);
    }
}
