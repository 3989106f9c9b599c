package org.rouse.selector.internal;

import java.util.concurrent.atomic.AtomicInteger;

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
     * Layout. Each attachment of an entry to the engine (Attachment, the key attachment of its channel) records the
     * epoch in which it was last marked, so the hand-off path reads and writes a field of an object it already holds.
     * The epoch is System.nanoTime() / `windowNanos`. `epoch`, `current` and `previous` describe the window: the epoch
     * being counted, the distinct channels marked in it, and the count of the epoch before it (0 if that one was
     * skipped).
     *
     * Algorithm. mark() (a loop thread at each hand-off to the pool, or the worker running a watched chain of upcalls)
     * reads the clock; if the epoch moved on it rolls the counts under `this` (one thread rolls, the others see the new
     * epoch); then, if the attachment's recorded epoch differs, it records the new one and increments `current`. The
     * caller has just seen the attachment attached (the loop checks Attachment.attached before it hands off, a watch
     * before it runs the next upcall), so a channel that left is not marked again; one that left still counts in the
     * epochs it was marked in, until they end. A channel detached and attached again gets a new Attachment and counts
     * again in that epoch, as a channel that left and a new one would.
     *
     * Errors of the estimate. A mark racing a roll may land in the epoch just closed and be lost from the new one: the
     * channel then counts again at its next hand-off. An attachment is marked by one thread at a time, except when a
     * re-arm racing an upcall lets the loop hand off the channel again while its worker still runs (the second dispatch
     * returns at once): two marks may then both count it. And a channel counts once per epoch, not per sliding window.
     *
     * Costs. One nanoTime, one volatile read and a field compare per hand-off and per watched call; an increment once
     * per channel per epoch; a short lock once per epoch.
     */

    /** The window's length in nanoseconds; at least 1. */
    private final long windowNanos;

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

    /**
     * Records that the channel of {@code attachment} has an upcall now; called by the loop the entry is assigned to
     * when it hands the entry to the pool, or by the worker running the entry's upcalls when its watch finds the next
     * one, in either case just after seeing the attachment still attached.
     */
    void mark(Attachment attachment) {
        long now = System.nanoTime() / windowNanos;
        if (now != epoch) {
            roll(now);
        }
        if (attachment.markedEpoch != now) {
            attachment.markedEpoch = now;
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
