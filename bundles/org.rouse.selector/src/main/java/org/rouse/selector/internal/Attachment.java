package org.rouse.selector.internal;

import org.rouse.selector.spi.SelectorEntry;

/**
 * One attachment of an entry to a {@link NioSelectorEngine}: the entry, the loop it is assigned to, whether it is still
 * attached, and the epoch in which it last had an upcall (for {@link ChannelActivity}). The engine creates one per
 * {@code attach} and its loop registers the channel with it as the key's attachment, so the loop's hand-off to the
 * pool finds all of this on the selected key, without a map lookup.
 */
final class Attachment {

    /*
     * Implementation notes.
     *
     * Layout. `entry` and `loop` never change: a detached entry that is attached again gets a new Attachment, so a
     * stale one (on a key not yet flushed, in an upcall task still running) can never be mistaken for the live one.
     *
     * Invariants. `attached` is true exactly while the engine's `attached` map maps `entry` to this object: it is
     * cleared under the engine's state lock in the same critical section that removes the mapping (detach,
     * deregister, drain, a failed registration, shutdown), and a mapping to a new Attachment is only made after that.
     */

    final SelectorEntry entry;

    final SelectLoop loop;

    /** True from attach until the engine lets the entry go; written under the engine's state lock, read by any thread. */
    volatile boolean attached = true;

    /**
     * The activity epoch in which this attachment last had an upcall ({@link Long#MIN_VALUE}: none yet). Written and
     * read by the one thread that has the entry at that moment (its loop at a hand-off, or the worker running its
     * upcalls during a watched chain; the hand-off between them goes through the pool's lock or the loop's queue, which
     * orders the accesses).
     */
    long markedEpoch = Long.MIN_VALUE;

    /** {@link #watchScore} of a new channel: one call that comes within the period away from being watched. */
    static final int WATCH_SCORE_INITIAL = 1;

    /** The lowest {@link #watchScore} at which the end of an upcall watches the channel. */
    static final int WATCH_SCORE_WATCHED = 2;

    static final int WATCH_SCORE_MAX = 3;

    /**
     * The adaptive watch's prediction for this channel (see NioSelectorEngine): a saturating counter, 0 to
     * {@link #WATCH_SCORE_MAX}, as a branch predictor's, of whether its next call comes within the watch period of
     * the end of an upcall: up one for each that did (a watch hit, or a call that reached the loop that soon after an
     * unwatched end), down one for each that did not. Written and read like {@link #markedEpoch}; a race during a
     * swap, when two tasks of one entry may briefly run, only costs or saves one watch.
     */
    int watchScore = WATCH_SCORE_INITIAL;

    /** When its last upcall ended with no watch that told whether the next call came soon (System.nanoTime). */
    long unwatchedEndNanos;

    /** Whether {@link #unwatchedEndNanos} holds an end whose outcome the next call will tell; as watchScore. */
    boolean endedUnwatched;

    /** The fewest upcalls that go to the pool after an upcall on the loop overran (see {@link #toPool()}). */
    static final int POOL_STINT_MIN = 16;

    /** The most: a handler that blocks every time tries the loop again once per this many upcalls. */
    static final int POOL_STINT_MAX = 1 << 16;

    /**
     * Whether an upcall of this channel, run by its loop thread, ran so long that the loop's other thread took the
     * selecting over (SelectLoop's "Take-over"). Set by the thread that ran that upcall, cleared by the loop's holder
     * (volatile: the writer no longer holds the loop).
     */
    volatile boolean overranOnLoop;

    /** How many upcalls the last overrun sent to the pool; 0 = none since the channel's last quiet upcalls; holder only. */
    int poolStint;

    /** Upcalls that still go to the pool, from the loop's hand-off; holder only. */
    int poolUpcallsLeft;

    Attachment(SelectorEntry entry, SelectLoop loop) {
        this.entry = entry;
        this.loop = loop;
    }

    /** Whether the end of this channel's next upcall should watch it (the adaptive watch's prediction). */
    boolean watchPredicted() {
        return watchScore >= WATCH_SCORE_WATCHED;
    }

    /** Counts one outcome into {@link #watchScore}: whether the next call came within the watch period. */
    void scoreWatch(boolean nextCameSoon) {
        if (nextCameSoon) {
            if (watchScore < WATCH_SCORE_MAX) {
                watchScore++;
            }
        } else if (watchScore > 0) {
            watchScore--;
        }
    }

    /** Notes an upcall end whose re-arm went to the loop with no watch to tell when the next call came. */
    void endedUnwatched(long upcallEndNanos) {
        unwatchedEndNanos = upcallEndNanos;
        endedUnwatched = true;
    }

    /**
     * With the take-over on, whether the holder sends this channel's ready upcall to the pool rather than running it
     * itself: after an overrun for a stint of upcalls (from {@link #POOL_STINT_MIN}, doubled for each overrun that
     * follows the next try on the loop, up to {@link #POOL_STINT_MAX}), so a handler that blocks stops holding the
     * loop up, and one that was only preempted comes back soon. Holder only.
     */
    boolean toPool() {
        if (overranOnLoop) {
            overranOnLoop = false;
            poolStint = Math.min(POOL_STINT_MAX, Math.max(POOL_STINT_MIN, poolStint * 2));
            poolUpcallsLeft = poolStint;
        }
        if (poolUpcallsLeft > 0) {
            poolUpcallsLeft--;
            return true;
        }
        return false;
    }

    /** An upcall of this channel ran on the loop within the bound: the next overrun starts from a shorter stint. */
    void ranOnLoop() {
        if (poolStint != 0) {
            poolStint >>>= 1;
        }
    }

    @Override
    public String toString() {
        return entry + (attached ? "" : " (detached)");
    }
}
