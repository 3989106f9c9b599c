package org.rouse.lock.spi;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A non-reentrant read-write lock: the {@link LockPrimitive} methods acquire and release it exclusively (write
 * mode); the {@code Shared} methods in shared (read) mode. The facade releases a mode only from the thread that
 * acquired it, never acquires a mode it already holds from the same thread, and never asks to upgrade except as an
 * attempt that may fail or wait (a reader calling an exclusive method, which the primitive treats like any other
 * caller's); so primitives need not track owners. Likewise the thread that holds the primitive exclusively may call
 * {@link #tryLockShared()}, which must fail as it does for any caller while the primitive is held exclusively (the
 * facade tries the primitive before it checks whether a reader is its writer). {@link #isLocked()} reports a hold in
 * either mode.
 *
 * @since 1.2
 */
@ConsumerType
public interface ReadWritePrimitive extends LockPrimitive {

    /** Acquires shared, waiting as long as needed; ignores interrupts (but preserves the interrupt status). */
    void lockShared();

    /** Acquires shared unless interrupted. */
    void lockSharedInterruptibly() throws InterruptedException;

    /**
     * Acquires shared if that is possible now; never waits. Should fail while a writer is queued, even if no thread
     * holds the primitive exclusively: the facade starts every read acquisition with it, so a barging attempt would
     * let overlapping readers keep a queued writer out.
     */
    boolean tryLockShared();

    /**
     * Acquires shared within {@code nanos}; returns soon after the time is up.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    boolean tryLockSharedNanos(long nanos) throws InterruptedException;

    /** Releases one shared hold of the calling thread. */
    void unlockShared();

    /**
     * Turns the calling thread's exclusive hold into a shared one, atomically: no writer can acquire in between.
     */
    void downgrade();

    /** Whether some thread holds the primitive exclusively now (a snapshot). */
    boolean isWriteLocked();
}
