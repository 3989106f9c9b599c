package org.rouse.lock;

import org.osgi.annotation.versioning.ProviderType;

/** A fixed set of locks, one chosen per key by hash. */
@ProviderType
public interface LockStripes {

    /** How many locks there are. */
    int size();

    /**
     * The lock guarding {@code key}: always the same one for equal keys.
     *
     * @throws NullPointerException if {@code key} is null
     */
    SwappableLock forKey(Object key);

    /**
     * The lock at {@code index}.
     *
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, size())}
     */
    SwappableLock at(int index);
}
