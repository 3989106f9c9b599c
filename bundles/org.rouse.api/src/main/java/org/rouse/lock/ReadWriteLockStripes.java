package org.rouse.lock;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A fixed set of read-write locks, one chosen per key by hash.
 *
 * @since 1.2
 */
@ProviderType
public interface ReadWriteLockStripes {

    /** How many locks there are. */
    int size();

    /**
     * The lock guarding {@code key}: always the same one for equal keys.
     *
     * @throws NullPointerException if {@code key} is null
     */
    SwappableReadWriteLock forKey(Object key);

    /**
     * The lock at {@code index}.
     *
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, size())}
     */
    SwappableReadWriteLock at(int index);
}
