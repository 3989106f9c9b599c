package org.rouse.lock;

import java.util.concurrent.locks.ReadWriteLock;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A reentrant {@link ReadWriteLock} whose locking strategy can be swapped while it is in use.
 *
 * <p>It behaves like a non-fair {@link java.util.concurrent.locks.ReentrantReadWriteLock}: both locks are reentrant;
 * a writer may take the read lock and, by releasing the write lock, downgrade to it; a reader cannot upgrade (a
 * {@code writeLock().tryLock()} by a reader fails, a {@code writeLock().lock()} waits forever, as in the JDK);
 * {@code writeLock().newCondition()} gives {@link java.util.concurrent.locks.Condition}s with the JDK's semantics;
 * {@code readLock().newCondition()} throws {@link UnsupportedOperationException}; releasing a lock the calling thread
 * does not hold throws {@link IllegalMonitorStateException}. One departure from {@code ReentrantReadWriteLock}:
 * {@code readLock().tryLock()} fails while a writer is queued (as the JDK's {@code readLock().lock()} would wait),
 * so that overlapping readers cannot keep a writer out.
 *
 * <p>Exclusion holds across swaps: a writer never holds the lock together with any other thread, readers only with
 * readers, whether they acquired it under the old strategy or the new one.
 *
 * <pre>{@code
 * SwappableReadWriteLock lock = locks.readWriteLock("routes");
 * lock.readLock().lock();
 * try {
 *     return routes.get(key);
 * } finally {
 *     lock.readLock().unlock();
 * }
 * }</pre>
 *
 * @since 1.2
 */
@ProviderType
public interface SwappableReadWriteLock extends ReadWriteLock {

    /** The lock's name. */
    String name();

    /** The strategy in force now, e.g. {@code "adaptive"}. */
    String strategy();

    /** Whether the calling thread holds the write lock. */
    boolean isWriteLockedByCurrentThread();

    /** How many times the calling thread holds the write lock (0 if it does not). */
    int writeHoldCount();

    /** How many times the calling thread holds the read lock (0 if it does not). */
    int readHoldCount();

    /** Whether any thread holds the write lock now (a snapshot, for monitoring). */
    boolean isWriteLocked();

    /**
     * A snapshot of this lock's counters: acquisitions and contended acquisitions of both locks (exact), waits of
     * both (sampled), hold times of the write lock only (sampled).
     */
    LockStatistics statistics();
}
