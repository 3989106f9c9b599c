package org.rouse.timer;

import java.time.Duration;
import org.osgi.annotation.versioning.ProviderType;

/** One firing of a {@link Timer}, as seen by its {@link TimerHandler}. */
@ProviderType
public interface TimerEvent {

    /** The timer that fired. */
    Timer timer();

    /** The monotonic ({@link System#nanoTime()}) deadline this event was due at. */
    long deadlineNanos();

    /** How long after its deadline the handler started. */
    Duration lateness();

    /**
     * For a periodic timer, how many firings were skipped because the previous event's handler was still running or
     * queued when they fell due; zero for a one-shot timer.
     */
    long missedFirings();
}
