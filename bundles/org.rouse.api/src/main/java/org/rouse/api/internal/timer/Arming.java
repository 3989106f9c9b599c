package org.rouse.api.internal.timer;

import org.rouse.timer.spi.TimerEntry;

/**
 * One arming of a {@link TimerHandle}, and its event in the owner's {@link SerialQueue} once it has expired. The handle
 * is its own arming whenever it can prove that no engine still knows its previous one (so a pending timer is one
 * object); otherwise it arms a {@link SpareArming}. A periodic timer arms the same object again for its next period
 * when no engine but the one that expired it can know it.
 */
abstract class Arming implements TimerEntry {
    /*
     * Implementation notes.
     *
     * Layout. One object serves as the engine's entry while armed (and, in the wheel, as the wheel's node: its engine
     * position and link) and as the intrusive node of the owner's serial queue once expired (`next`); an arming is in
     * at most one of those places at a time, because expiry takes it out of the handle's `armed` reference by one CAS
     * before it queues it. The handle itself is an Arming (TimerHandle extends this class), used as the arming while
     * it is free (see TimerHandle's notes); a SpareArming stands in while it is not.
     *
     * Re-use. TimerHandle.afterRun arms the same object for the next period (new deadline and missed count) instead of
     * allocating one, and TimerHandle arms itself again once its previous arming as itself has ended. That is safe
     * only while the engine that expired it (or from which a cancel took it) is the only engine that ever held it: an
     * engine that still held it would later expire the next arming at the old deadline, i.e. early. Two engines can
     * hold one arming only across a swap: a swap's drain returned it (`takenBySwap`), or the arming thread armed it
     * again after a swapped-out engine failed to disarm it (`shared`, set by TimerDispatch.arm). Either flag makes
     * the next arming a fresh one (and a handle with either flag set never arms itself again); both stay false in the
     * steady state, so a periodic timer fires without allocating and a one-shot costs one object.
     *
     * Ordering. The mutable fields are written under the handle's monitor before the arming is published in the
     * handle's `armed` reference (a volatile write) and handed to the engine (under its lock); the engine, the expiry's
     * CAS and the queue's lock order every later read after those writes.
     */

    /** The deadline of this arming; written under the handle's monitor before publication (see the notes). */
    long deadlineNanos;
    /**
     * The handle's generation when armed: a run whose generation is stale must not re-arm. A periodic timer's re-used
     * arming keeps it, since only a run with the current generation re-uses its arming; as deadlineNanos.
     */
    int armedGeneration;
    /**
     * Firings of a fixed-rate timer skipped to reach this deadline, at most Integer.MAX_VALUE (2^31 - 1 periods: 24
     * days of a timer at the default minimum interval of 1 ms, as TimerEvent documents); an int, which keeps the handle that is its own arming within
     * 88 bytes. As deadlineNanos.
     */
    int missedFirings;
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

    /** The timer this arms. */
    abstract TimerHandle handle();

    /**
     * Sets the deadline, generation and missed count of an arming that is in no engine and no queue (new, or expired
     * and run); called under the handle's monitor before it is armed.
     */
    final void set(long nextDeadlineNanos, int armedGeneration, long missed) {
        deadlineNanos = nextDeadlineNanos;
        this.armedGeneration = armedGeneration;
        missedFirings = (int) Math.min(missed, Integer.MAX_VALUE);
    }

    /** Whether this arming may be armed again for the next period (see the notes). */
    boolean reusable() {
        return !takenBySwap && !shared;
    }

    @Override
    public final long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public final void expire() {
        handle().expire(this);
    }

    @Override
    public final Object engineSlot() {
        return engineSlot;
    }

    @Override
    public final void engineSlot(Object slot) {
        engineSlot = slot;
    }

    @Override
    public final int enginePosition() {
        return enginePosition;
    }

    @Override
    public final void enginePosition(int position) {
        enginePosition = position;
    }

    @Override
    public final int engineLink() {
        return engineLink;
    }

    @Override
    public final void engineLink(int link) {
        engineLink = link;
    }

    /** Whether this is still the handle's pending arming (not fired, cancelled or replaced). */
    boolean isLive() {
        return handle().isArmedWith(this);
    }
}
