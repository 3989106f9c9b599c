package org.rouse.api.internal.timer;

/**
 * An arming of a timer whose handle cannot arm itself: its previous arming as itself is still queued or running, or
 * may still be known to an engine (see {@link Arming}'s notes).
 */
final class SpareArming extends Arming {

    private final TimerHandle handle;

    SpareArming(TimerHandle handle) {
        this.handle = handle;
    }

    @Override
    TimerHandle handle() {
        return handle;
    }

    @Override
    public String toString() {
        return handle + "@" + deadlineNanos;
    }
}
