package org.rouse.api.internal.lock;

/**
 * The lock service in JMX, as {@code org.rouse:type=Lock}: the engine, the strategy policy and the statistics of every
 * live lock, summed. Counts cover the time since each lock was created or the last {@link #resetStatistics()}; waits
 * and holds are sampled as {@code LockStatistics} documents; times are in microseconds.
 *
 * <p>No per-lock beans: locks are unbounded in number (anonymous locks, stripes); {@link #getTopContended()} gives the
 * ten that matter.
 */
public interface LockMXBean {

    /** The active engine's name, {@code none} without one. */
    String getEngine();

    /** The strategies the active engine offers; empty without one. */
    String[] getStrategies();

    /** The default strategy and patterns in force. */
    String getPolicy();

    /** Live locks. */
    int getLocks();

    /** Outermost acquisitions over all locks. */
    long getAcquisitions();

    /** Acquisitions that had to wait. */
    long getContendedAcquisitions();

    /** Spin iterations of waiting threads. */
    long getSpins();

    /** Parks of waiting threads. */
    long getParks();

    /** Direct hand-offs to a waiting thread. */
    long getHandoffs();

    /** Strategy swaps of live locks. */
    long getSwaps();

    /** The longest sampled wait of any lock. */
    double getLongestWaitMicros();

    /** The median sampled wait over all locks. */
    double getWaitP50Micros();

    /** The 99th percentile of sampled waits over all locks. */
    double getWaitP99Micros();

    /** The 10 most contended locks: {@code name strategy contended=N acquired=M wait p99=X µs}. */
    String[] getTopContended();

    /** Counts every lock afresh from now (the locks' own statistics, which consumers read, are unchanged). */
    void resetStatistics();
}
