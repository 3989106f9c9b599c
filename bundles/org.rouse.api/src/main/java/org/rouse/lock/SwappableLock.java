package org.rouse.lock;

import java.util.concurrent.locks.Lock;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A reentrant {@link Lock} whose locking strategy can be swapped while it is in use.
 *
 * <p>Mutual exclusion holds across swaps: a thread that locked under the old strategy keeps the lock until it
 * unlocks, and no thread gets it under the new strategy before then.
 */
@ProviderType
public interface SwappableLock extends Lock {

    /** The lock's name, or a generated one for an anonymous lock. */
    String name();

    /** The strategy in force now, e.g. {@code "adaptive"}. */
    String strategy();

    /** Whether the calling thread holds this lock. */
    boolean isHeldByCurrentThread();

    /** How many times the calling thread holds this lock (0 if it does not). */
    int holdCount();

    /** Whether any thread holds the lock now (a snapshot, for monitoring). */
    boolean isLocked();

    /** A snapshot of this lock's counters. */
    LockStatistics statistics();
}
