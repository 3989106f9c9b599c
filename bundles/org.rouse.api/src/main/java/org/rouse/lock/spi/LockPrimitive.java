package org.rouse.lock.spi;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A non-reentrant mutex. The facade calls {@link #unlock()} only from the thread that acquired it, and never
 * acquires it twice from one thread, so primitives need not track owners.
 */
@ConsumerType
public interface LockPrimitive {

    /** The strategy name, e.g. {@code "adaptive"}. */
    String strategy();

    /** Acquires, waiting as long as needed; ignores interrupts (but preserves the interrupt status). */
    void lock();

    /** Acquires unless interrupted. */
    void lockInterruptibly() throws InterruptedException;

    /** Acquires if free now; never waits. */
    boolean tryLock();

    /**
     * Acquires if free within {@code nanos}; returns soon after the time is up.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    boolean tryLockNanos(long nanos) throws InterruptedException;

    /** Releases. */
    void unlock();

    /** Whether some thread holds the primitive now (a snapshot). */
    boolean isLocked();

    /**
     * Spin iterations performed by threads waiting for this primitive so far (0 if the strategy does not spin or
     * does not count). Engine-side counters are read by the front for statistics; they are cumulative and need
     * only be eventually accurate.
     *
     * @since 1.1
     */
    default long spins() {
        return 0L;
    }

    /**
     * Times a thread parked (blocked in the kernel) waiting for this primitive so far (0 if not counted).
     *
     * @since 1.1
     */
    default long parks() {
        return 0L;
    }

    /**
     * Times an unlock handed this primitive directly to a waiting thread so far (0 if the strategy never does).
     *
     * @since 1.1
     */
    default long handoffs() {
        return 0L;
    }

    /**
     * Whether a release may free the primitive by a store without a StoreLoad fence (as {@link
     * BargingMutex#BargingMutex(boolean)} allows), so that a thread which releases it in the same instant as another
     * thread's failed {@link #tryLock()} may not yet see that thread's earlier writes. The facade's swap then retries
     * its tryLock briefly instead of relying on the releasing thread alone. False by default: a volatile store, as
     * every primitive made before 1.9.
     *
     * @since 1.9
     */
    default boolean releasesByStore() {
        return false;
    }
}
