package org.rouse.api.internal.timer;

import org.rouse.timer.spi.TimerEntry;

/**
 * One arming of a {@link TimerHandle}, and its event in the owner's {@link SerialQueue} once it has expired. A periodic
 * timer arms the same object again for its next period when no engine but the one that expired it can know it.
 */
final class Arming implements TimerEntry {

    /*
     * Implementation notes.
     *
     * Layout. One object serves as the engine's entry while armed and as the intrusive node of the owner's serial
     * queue once expired (`next`); an arming is in at most one of those places at a time, because expiry takes it out
     * of the handle's `armed` reference by one CAS before it queues it.
     *
     * Re-use. TimerHandle.afterRun arms the same object for the next period (new deadline and missed count) instead of
     * allocating one. That is safe only while the engine that expired it is the only engine that ever held it: an
     * engine that still held it would later expire the next period's arming at the old deadline, i.e. early. Two
     * engines can hold one arming only across a swap: a swap's drain returned it (`takenBySwap`), or the arming thread
     * armed it again after a swapped-out engine failed to disarm it (`shared`, set by TimerDispatch.arm). Either flag
     * makes the next period use a fresh arming; both stay false in the steady state, so a periodic timer fires without
     * allocating.
     *
     * Ordering. The mutable fields are written under the handle's monitor before the arming is published in the
     * handle's `armed` reference (a volatile write) and handed to the engine (under its lock); the engine, the expiry's
     * CAS and the queue's lock order every later read after those writes.
     */

    final TimerHandle handle;
    /** The deadline of this arming; written under the handle's monitor before publication (see the notes). */
    long deadlineNanos;
    /**
     * The handle's generation when first armed: a run whose generation is stale must not re-arm. A re-used arming
     * keeps it, since only a run with the current generation re-uses its arming.
     */
    final int generation;
    /** Firings of a fixed-rate timer skipped to reach this deadline; as above. */
    long missedFirings;
    /**
     * Whether a swap's drain has returned this arming, making that swap responsible for it; written and read under
     * {@link TimerDispatch}'s swap lock (and read by afterRun, ordered after it by the engine that expired it).
     */
    boolean takenBySwap;
    /**
     * Whether this arming may have been known to two engines at once; written by {@link TimerDispatch#arm} under the
     * handle's monitor, read under it by afterRun. Such an arming is never armed again.
     */
    boolean shared;
    /** The next expired arming in the owner's serial queue; guarded by that queue's monitor. */
    Arming next;
    /** Written and read only by the engine this arming is in (see {@link TimerEntry#engineSlot()}). */
    private Object engineSlot;
    /** The engine's position and link for this entry; as the engine slot. */
    private int enginePosition;

    private int engineLink;

    Arming(TimerHandle handle, long deadlineNanos, int generation, long missedFirings) {
        this.handle = handle;
        this.deadlineNanos = deadlineNanos;
        this.generation = generation;
        this.missedFirings = missedFirings;
    }

    /**
     * Sets the next period's deadline on an arming that has expired and run; called under the handle's monitor before
     * it is armed again.
     */
    void rearm(long nextDeadlineNanos, long missed) {
        deadlineNanos = nextDeadlineNanos;
        missedFirings = missed;
    }

    /** Whether this arming may be armed again for the next period (see the notes). */
    boolean reusable() {
        return !takenBySwap && !shared;
    }

    @Override
    public long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public void expire() {
        handle.expire(this);
    }

    @Override
    public Object engineSlot() {
        return engineSlot;
    }

    @Override
    public void engineSlot(Object slot) {
        engineSlot = slot;
    }

    @Override
    public int enginePosition() {

        return enginePosition;
    }

    @Override
    public void enginePosition(int position) {

        enginePosition = position;
    }

    @Override
    public int engineLink() {

        return engineLink;
    }

    @Override
    public void engineLink(int link) {

        engineLink = link;
    }

    /** Whether this is still the handle's pending arming (not fired, cancelled or replaced). */
    boolean isLive() {
        return handle.isArmedWith(this);
    }

    @Override
    public String toString() {
        return handle + "@" + deadlineNanos;
    }
}
