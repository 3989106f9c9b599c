package org.rouse.api.internal.timer;

import org.rouse.timer.spi.TimerEntry;

/** One arming of a {@link TimerHandle}: immutable but for the engine's slot. */
final class Arming implements TimerEntry {

    final TimerHandle handle;
    final long deadlineNanos;
    /** The handle's generation when armed: a run whose generation is stale must not re-arm. */
    final int generation;
    /** Firings of a fixed-rate timer skipped to reach this deadline. */
    final long missedFirings;
    /**
     * Whether a swap's drain has returned this arming, making that swap responsible for it; written and read under
     * {@link TimerDispatch}'s swap lock.
     */
    boolean takenBySwap;
    /** Written and read only by the engine this arming is in (see {@link TimerEntry#engineSlot()}). */
    private Object engineSlot;

    Arming(TimerHandle handle, long deadlineNanos, int generation, long missedFirings) {
        this.handle = handle;
        this.deadlineNanos = deadlineNanos;
        this.generation = generation;
        this.missedFirings = missedFirings;
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

    /** Whether this is still the handle's pending arming (not fired, cancelled or replaced). */
    boolean isLive() {
        return handle.isArmedWith(this);
    }

    @Override
    public String toString() {
        return handle + "@" + deadlineNanos;
    }
}
