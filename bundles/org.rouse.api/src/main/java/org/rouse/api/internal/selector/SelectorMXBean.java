package org.rouse.api.internal.selector;

import java.util.Map;

/**
 * The selector service in JMX, as {@code org.rouse:type=Selector}: the active engine's counters and the views'
 * statistics summed over every consuming bundle. Engine counters count from the engine's start; upcall counts from
 * each view's creation or the last {@link #resetStatistics()}.
 *
 * <p>No per-connection beans (connections are unbounded in number); {@link #getConnectionsPerBundle()} gives the
 * counts per consuming bundle.
 */
public interface SelectorMXBean {

    /** The active engine's name, {@code none} without one. */
    String getEngine();

    /** Every counter of the active engine by name (see {@code SelectorEngine.counters()}); empty without one. */
    Map<String, Long> getEngineCounters();

    /** Completed select calls of all loops. */
    long getSelectCycles();

    /** Wake-ups asked of the engine. */
    long getWakeupsRequested();

    /** Wake-ups the engine actually wrote (the rest were coalesced). */
    long getWakeupsWritten();

    /** Worker threads alive now. */
    long getPoolThreads();

    /** Upcalls waiting for a worker now. */
    long getPoolQueued();

    /** Worker threads started since the engine started. */
    long getPoolThreadsCreated();

    /** Channels registered over all bundles. */
    long getRegistrations();

    /** Connected sockets registered over all bundles. */
    long getConnections();

    /** Upcalls that finished. */
    long getUpcalls();

    /** Upcalls that threw. */
    long getFailedUpcalls();

    /** Per consuming bundle: {@code connections/listening/other}. */
    Map<String, String> getConnectionsPerBundle();

    /** Zeroes every view's upcall counts and durations. */
    void resetStatistics();
}
