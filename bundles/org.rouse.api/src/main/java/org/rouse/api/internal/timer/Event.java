package org.rouse.api.internal.timer;

import java.time.Duration;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerEvent;

/**
 * One firing, as handed to a handler: one object per owner, filled in for each of its firings (an owner's handlers
 * run one at a time, so one firing's event is never seen during another's), so a firing allocates nothing. The
 * {@link TimerEvent} contract says it is valid while its handler runs.
 *
 * <p>The fields are written by the thread running the owner's queue before it calls the handler, and read by that
 * same call; successive runners are ordered by the queue's state CAS, so plain fields do.
 */
final class Event implements TimerEvent {

    private Timer timer;
    private long deadlineNanos;
    private long startNanos;
    private long missedFirings;

    /** Makes this the event of a firing of {@code timer}, due at {@code deadlineNanos}, started at {@code startNanos}. */
    Event fill(Timer timer, long deadlineNanos, long startNanos, long missedFirings) {
        if (this.timer != timer) { // an owner's timer is usually the same one again: no G1 card mark then
            this.timer = timer;
        }
        this.deadlineNanos = deadlineNanos;
        this.startNanos = startNanos;
        this.missedFirings = missedFirings;
        return this;
    }

    @Override
    public Timer timer() {
        return timer;
    }

    @Override
    public long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public Duration lateness() {
        return Duration.ofNanos(Math.max(0, startNanos - deadlineNanos));
    }

    @Override
    public long missedFirings() {
        return missedFirings;
    }

    @Override
    public String toString() {
        return "TimerEvent[" + timer + ", due " + deadlineNanos + ", started " + startNanos + ", missed "
                + missedFirings + "]";
    }
}
