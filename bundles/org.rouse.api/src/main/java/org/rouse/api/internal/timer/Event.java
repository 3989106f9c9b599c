package org.rouse.api.internal.timer;

import java.time.Duration;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerEvent;

/** One firing, as handed to a handler. */
record Event(Timer timer, long deadlineNanos, long startNanos, long missedFirings) implements TimerEvent {

    @Override
    public Duration lateness() {
        return Duration.ofNanos(Math.max(0, startNanos - deadlineNanos));
    }
}
