package org.rouse.lock;

import org.osgi.annotation.versioning.ProviderType;
import org.rouse.stats.Percentiles;

/**
 * A snapshot of lock counters: of one lock, or summed over the locks of a view. Counters survive strategy swaps (a
 * swapped-out strategy's counts are kept).
 *
 * <pre>{@code
 * LockStatistics s = lock.statistics();
 * if (s.contendedAcquisitions() * 10 > s.acquisitions()) {
 *     log.info("{} is hot: waits {}, holds {}", lock.name(), s.waitNanos(), s.holdNanos());
 * }
 * }</pre>
 *
 * <p>Costs: counts are kept by the lock holder; waits are timed only when an acquisition had to wait, and hold
 * times are sampled (one acquisition in 16, and only on locks that have been contended), so an uncontended
 * acquisition pays no clock read.
 */
@ProviderType
public interface LockStatistics {

    /** Successful acquisitions (outermost ones: reentrant acquisitions are not counted). */
    long acquisitions();

    /** Acquisitions that found the lock held and had to wait. */
    long contendedAcquisitions();

    /** The longest time a thread waited to acquire, in nanoseconds. */
    long longestWaitNanos();

    /** Strategy swaps performed. */
    long swaps();

    /**
     * Spin iterations made by waiting threads (strategies that spin, e.g. {@code adaptive}, {@code spin-yield}
     * where counted; 0 otherwise).
     *
     * @since 1.1
     */
    long spins();

    /**
     * Times a waiting thread parked (blocked) in the strategy's own queue (0 for strategies that do not count it).
     *
     * @since 1.1
     */
    long parks();

    /**
     * Times an unlock handed the lock directly to a waiting thread ({@code fair} always; {@code adaptive} when its
     * oldest waiter passed the fairness bound).
     *
     * @since 1.1
     */
    long handoffs();

    /**
     * The waits of contended acquisitions, in nanoseconds (every contended acquisition is recorded).
     *
     * @since 1.1
     */
    Percentiles waitNanos();

    /**
     * Hold times (outermost acquisition to final unlock), in nanoseconds, sampled: one acquisition in 16 once the
     * lock has been contended; empty for a lock that never was.
     *
     * @since 1.1
     */
    Percentiles holdNanos();
}
