package org.rouse.lock;

import java.util.Set;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The consuming bundle's view of the lock provider. See the {@linkplain org.rouse.lock package documentation} for the
 * contract and an example.
 */
@ProviderType
public interface LockService {

    /**
     * Returns a new lock known to nobody else, with the default strategy.
     *
     * @throws IllegalStateException if this view has been released
     */
    SwappableLock newLock();

    /**
     * Returns this bundle's lock with the given name, creating it on first use. Other bundles asking for the same
     * name get their own, different lock.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty
     * @throws IllegalStateException if this view has been released
     */
    SwappableLock lock(String name);

    /**
     * Returns the lock with the given name in the namespace shared by every bundle, creating it on first use. Use
     * it only to coordinate with other bundles on purpose.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty
     * @throws IllegalStateException if this view has been released
     */
    SwappableLock sharedLock(String name);

    /**
     * Returns this bundle's set of {@code count} locks with the given name, creating it on first use; a key picks
     * its lock by hash, as for guarding the buckets of a hash table.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty, {@code count} is not positive, or a stripe set of
     *     this name exists with another count
     * @throws IllegalStateException if this view has been released
     */
    LockStripes stripes(String name, int count);

    /**
     * Returns this bundle's read-write lock with the given name, creating it on first use. Read-write locks have a
     * namespace of their own: a plain lock of the same name is a different lock. Other bundles asking for the same
     * name get their own lock. The strategy comes from the same configuration as plain locks' (falling back to the
     * engine's default read-write strategy when the configured one has no read-write form).
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty
     * @throws IllegalStateException if this view has been released
     * @since 1.2
     */
    SwappableReadWriteLock readWriteLock(String name);

    /**
     * Returns this bundle's set of {@code count} read-write locks with the given name, creating it on first use; a
     * key picks its lock by hash. Stripe counts have the same limits as {@link #stripes(String, int)}.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty, {@code count} is not positive or too large, or a
     *     read-write stripe set of this name exists with another count
     * @throws IllegalStateException if this view has been released
     * @since 1.2
     */
    ReadWriteLockStripes readWriteStripes(String name, int count);

    /** The strategies the active engine offers, e.g. {@code [adaptive, fair, jdk, spin-yield]}. */
    Set<String> strategies();

    /** A snapshot of the counters of every lock of this view. */
    LockStatistics statistics();
}
