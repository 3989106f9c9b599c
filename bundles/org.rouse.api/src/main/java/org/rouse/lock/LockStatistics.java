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
 * <p>Costs: the counts are exact and kept by the lock holder in fields it writes anyway; waits are timed only
 * when an acquisition had to wait, and recorded for one contended acquisition in 8 (the first, the ninth, ...);
 * hold times are sampled (one acquisition in 256, and only on locks that have been contended). So no acquisition
 * reads the clock or writes a histogram while it holds the lock, except the sampled ones.
 */
@ProviderType
public interface LockStatistics {

    /** Successful acquisitions (outermost ones: reentrant acquisitions are not counted). */
    long acquisitions();

    /** Acquisitions that found the lock held and had to wait. */
    long contendedAcquisitions();

    /**
     * The longest time a thread waited to acquire, in nanoseconds, among the sampled contended acquisitions (one in
     * 8, the first included; see {@link #waitNanos()}).
     */
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
     * fairness timer has expired).
     *
     * @since 1.1
     */
    long handoffs();

    /**
     * The waits of contended acquisitions, in nanoseconds, sampled: one contended acquisition in 8 is recorded (the
     * first, the ninth, ...), so that the others read no clock while they hold the lock.
     *
     * @since 1.1
     */
    Percentiles waitNanos();

    /**
     * Hold times (outermost acquisition to final unlock), in nanoseconds, sampled: one acquisition in 256 once the
     * lock has been contended; empty for a lock that never was.
     *
     * @since 1.1
     */
    Percentiles holdNanos();
}
