package org.rouse.lock.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.rouse.lock.FencedLock;
import org.rouse.lock.FencedReadWriteLock;

/**
 * Cluster-wide locks for the names a cluster bundle is configured for. The lock front consults the best-ranked
 * provider when a consumer asks for a lock by name ({@code lock}, {@code sharedLock}, {@code readWriteLock}), never
 * on {@code lock()} or {@code unlock()}: a consumer that keeps its lock object pays nothing per acquisition for the
 * look-up, and names no provider {@linkplain #handles(String) handles} stay local locks.
 *
 * <p>Names are cluster-wide: every bundle and every process asking a provider for the same name gets the same lock.
 * A provider that goes away (its bundle stopped, its configuration changed) invalidates the holds of its locks and
 * fails later acquisitions of them with {@link IllegalStateException}; consumers ask the service again for a lock of
 * the new provider.
 *
 * <pre>{@code
 * @Component(service = ClusterLockProvider.class)
 * public class ZooKeeperLocks implements ClusterLockProvider {
 *     public boolean handles(String name) { return name.startsWith("cluster."); }
 *     public FencedLock lock(String name) { return locks.computeIfAbsent(name, this::newMutex); }
 *     public FencedReadWriteLock readWriteLock(String name) { return readWrite.computeIfAbsent(name, this::newRw); }
 * }
 * }</pre>
 *
 * @since 1.3
 */
@ConsumerType
public interface ClusterLockProvider {

    /** Whether {@code name} is a cluster lock; cheap (no I/O), called on every look-up by name. */
    boolean handles(String name);

    /**
     * The cluster lock named {@code name}, the same object for the same name while this provider lives.
     *
     * @throws IllegalArgumentException if this provider does not {@linkplain #handles(String) handle} {@code name}
     */
    FencedLock lock(String name);

    /**
     * The cluster read-write lock named {@code name} (a namespace separate from {@link #lock(String)}'s).
     *
     * @throws IllegalArgumentException if this provider does not {@linkplain #handles(String) handle} {@code name}
     */
    FencedReadWriteLock readWriteLock(String name);
}
