package org.rouse.api.internal.lock;

import java.util.Objects;
import org.rouse.lock.LockStripes;
import org.rouse.lock.SwappableLock;

/**
 * A fixed array of facades; a key picks one by its mixed hash.
 *
 * <p>Implementation notes: {@code hashCode()} is mixed with the MurmurHash3 32-bit finalizer (so keys whose hashes
 * differ only in high bits, or are multiples of the size, still spread), then mapped onto {@code [0, size)} with
 * Lemire's multiply-shift range reduction (no division, no bias worth mentioning). The array never changes.
 */
final class LockStripesImpl implements LockStripes {

    private final String name;
    private final LockFacade[] locks;

    private LockStripesImpl(String name, LockFacade[] locks) {
        this.name = name;
        this.locks = locks;
    }

    /** Makes {@code count} facades named {@code name#i}, all matched against the strategy patterns as {@code name}. */
    static LockStripesImpl create(LockFrontCore core, String name, int count) {
        LockFacade[] locks = new LockFacade[count];
        for (int i = 0; i < count; i++) {
            locks[i] = core.newFacade(name + "#" + i, name);
        }
        return new LockStripesImpl(name, locks);
    }

    @Override
    public int size() {
        return locks.length;
    }

    @Override
    public SwappableLock forKey(Object key) {
        Objects.requireNonNull(key, "key must not be null");
        return locks[indexFor(key.hashCode(), locks.length)];
    }

    @Override
    public SwappableLock at(int index) {
        Objects.checkIndex(index, locks.length);
        return locks[index];
    }

    static int indexFor(int hash, int size) {
        int h = hash;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return (int) (((h & 0xFFFFFFFFL) * size) >>> 32);
    }

    @Override
    public String toString() {
        return "LockStripes[" + name + ", " + locks.length + "]";
    }
}
