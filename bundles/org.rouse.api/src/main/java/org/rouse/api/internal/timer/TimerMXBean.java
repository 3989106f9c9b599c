package org.rouse.api.internal.timer;

/**
 * The timer service in JMX, as {@code org.rouse:type=Timer}: the engine and the statistics the front counts, summed
 * over every consuming bundle. Times are in milliseconds. Counts and lateness cover the time since each view was
 * created or the last {@link #resetStatistics()}; engine figures since the engine started.
 *
 * <p>No per-owner or per-bundle beans: owners are unbounded in number; {@link #getTopLateOwners()} and
 * {@link #getRunningHandlers()} give the few that matter.
 */
public interface TimerMXBean {

    /** The active engine's name, {@code none} while the standby engine stands in. */
    String getEngine();

    /** How many times the active engine's dispatcher woke up since it started. */
    long getDispatcherWakeups();

    /** Engine swaps since the front started. */
    long getSwaps();

    /** How long the last swap paused scheduling. */
    double getLastSwapPauseMillis();

    /** Consuming bundles with a timer service view. */
    int getBundles();

    /** Live timer owners over all bundles. */
    int getOwners();

    /** Timers waiting for their deadline now. */
    long getPending();

    /** Handler runs that finished. */
    long getFired();

    /** Handler runs that threw. */
    long getFailed();

    /** Timers cancelled before they ran. */
    long getCancelled();

    /** Periods raised to the minimum interval. */
    long getClamped();

    /** Handler runs slower than {@code slow.handler.threshold.ms}. */
    long getSlowHandlers();

    /** Handler starts after their deadline that were recorded. */
    long getLatenessCount();

    /** The median lateness. */
    double getLatenessP50Millis();

    /** The 99th percentile of lateness. */
    double getLatenessP99Millis();

    /** The 99.9th percentile of lateness. */
    double getLatenessP999Millis();

    /** The largest lateness. */
    double getLatenessMaxMillis();

    /** Handlers running now. */
    int getRunningHandlerCount();

    /** How long the longest-running handler has been running now, 0 when none runs. */
    double getLongestRunningHandlerMillis();

    /** The 10 owners with the largest lateness: {@code bundle owner runs=N mean=X ms max=Y ms}. */
    String[] getTopLateOwners();

    /** The 10 handlers running longest now: {@code bundle owner timer running=X ms}. */
    String[] getRunningHandlers();

    /** Zeroes counts and lateness of every view and owner (not pending timers, engine wake-ups or swaps). */
    void resetStatistics();
}
