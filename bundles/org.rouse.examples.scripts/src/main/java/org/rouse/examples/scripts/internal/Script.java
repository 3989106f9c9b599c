package org.rouse.examples.scripts.internal;

import java.time.Duration;
import org.rouse.timer.TimerEvent;
import org.rouse.timer.TimerOwner;

/**
 * One script: {@code state_entry} calls {@code llSetTimerEvent(interval)}; {@code timer()} measures the time since
 * the previous event the way {@code llGetAndResetTime()} does.
 */
final class Script {

    private final TimerOwner owner;
    private final ReentryWindow window;
    /** Time of the previous timer() event; written only by this script's handler, which its owner serializes. */
    private long lastEventNanos;

    Script(TimerOwner owner, ReentryWindow window) {
        this.owner = owner;
        this.window = window;
    }

    /** {@code state_entry}: start the timer, first firing spread within one interval like scripts rezzed apart. */
    void stateEntry(Duration interval, Duration phase) {
        owner.scheduleAtFixedRate(phase, interval, this::timer);
    }

    private void timer(TimerEvent event) {
        long now = System.nanoTime();
        if (lastEventNanos != 0) {
            window.record(now - lastEventNanos, event.lateness().toNanos());
        }
        lastEventNanos = now;
    }

    void stop() {
        owner.close();
    }
}
