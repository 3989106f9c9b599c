package org.rouse.lock;

import org.osgi.annotation.versioning.ProviderType;

/** A snapshot of lock counters: of one lock, or summed over the locks of a view. */
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
}
