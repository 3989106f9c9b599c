package org.rouse.timer;

import java.time.Duration;
import org.osgi.annotation.versioning.ProviderType;

/**
 * One firing of a {@link Timer}, as seen by its {@link TimerHandler}.
 *
 * <p>An event is valid while the handler it is given to runs: the service fills the same object in for the owner's
 * next firing (since 1.2, so that a firing allocates nothing), so a handler that needs the values later copies them.
 *
 * <pre>{@code
 * owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(50), event -> {
 *     long missed = event.missedFirings(); // read during the call; do not keep the event itself
 *     tick(missed);
 * });
 * }</pre>
 */
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
     * queued when they fell due; zero for a one-shot timer. Counted up to {@link Integer#MAX_VALUE} per event (2^31 - 1
     * periods: 24 days of a timer at the default minimum interval of 1 ms).
     */
    long missedFirings();
}
