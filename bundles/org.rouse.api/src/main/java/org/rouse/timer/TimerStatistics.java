package org.rouse.timer;

import org.osgi.annotation.versioning.ProviderType;
import org.rouse.stats.Percentiles;

/**
 * A snapshot of a timer view's counters and of the engine that runs it. Counters count since the view was created;
 * engine figures since the engine started.
 */
@ProviderType
public interface TimerStatistics {

    /** Timers of this view waiting for their deadline now. */
    long pending();

    /** Handler runs that have finished (normally or by throwing). */
    long fired();

    /** Handler runs that threw. */
    long failed();

    /** Timers cancelled before they ran. */
    long cancelled();

    /** Periods raised to the minimum interval. */
    long clamped();

    /** Handler runs that took longer than the configured slow-handler threshold. */
    long slowHandlers();

    /** How late handlers started after their deadline: every event since the view was created (HdrHistogram, 3 significant digits). */
    Percentiles lateness();

    /** The name of the engine running the timers now, or {@code "none"} while no engine is available. */
    String engine();

    /** How many times the engine's dispatcher woke up (for deadlines or signals) since it started. */
    long dispatcherWakeups();
}
