package org.rouse.timer.spi;

import org.osgi.annotation.versioning.ProviderType;

/**
 * One arming of a timer, as an engine sees it. Created by the timer front; engines only read it and call
 * {@link #expire()}.
 */
@ProviderType
public interface TimerEntry {

    /**
     * The deadline on the {@link System#nanoTime()} clock. Never changes while the entry is armed. The front may arm
     * an entry again after the engine has called its {@link #expire()} and no longer holds it (a periodic timer's
     * next period), with a new deadline; an engine reads the deadline in {@link TimerEngine#arm(TimerEntry)}.
     */
    long deadlineNanos();

    /**
     * Called by the engine once the deadline has passed. Returns quickly: the front only queues the handler.
     * Never throws.
     */
    void expire();

    /**
     * A slot the engine that holds the entry may use for its own bookkeeping (e.g. a node for O(1) disarm). Only the
     * engine the entry is armed in reads or writes it. It keeps what the engine last put there after the entry
     * expires, so an engine may re-use its node when the same entry is armed in it again.
     */
    Object engineSlot();

    /** Sets the engine's slot; see {@link #engineSlot()}. */
    void engineSlot(Object slot);

    /**
     * Where the engine that holds the entry keeps it (e.g. a bucket or heap index), so that an engine can keep its
     * bookkeeping in the entry instead of allocating a node per entry. Owned like {@link #engineSlot()}: an engine
     * writes it only while it holds the entry or is arming it, and sets it when it arms the entry (its value before
     * is whatever an earlier engine left, 0 for a new entry). An engine that reads it for an entry it may not hold
     * checks the answer against its own structures.
     *
     * @since 1.2
     */
    int enginePosition();

    /** Sets the engine's position; see {@link #enginePosition()}. @since 1.2 */
    void enginePosition(int position);

    /** A second int for the engine's bookkeeping (e.g. a link into its own arrays), owned as {@link #enginePosition()}. @since 1.2 */
    int engineLink();

    /** Sets the engine's link; see {@link #engineLink()}. @since 1.2 */
    void engineLink(int link);
}
