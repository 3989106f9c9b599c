package org.rouse.api.internal.lock;

import java.util.Objects;
import org.rouse.lock.ReadWriteLockStripes;
import org.rouse.lock.SwappableReadWriteLock;

/**
 * A fixed array of read-write facades; a key picks one by its mixed hash, exactly as {@link LockStripesImpl} does.
 */
final class ReadWriteStripesImpl implements ReadWriteLockStripes {

    private final String name;
    private final ReadWriteFacade[] locks;

    private ReadWriteStripesImpl(String name, ReadWriteFacade[] locks) {
        this.name = name;
        this.locks = locks;
    }

    /** Makes {@code count} facades named {@code name#i}, all matched against the strategy patterns as {@code name}. */
    static ReadWriteStripesImpl create(LockFrontCore core, String name, int count) {
        ReadWriteFacade[] locks = new ReadWriteFacade[count];
        for (int i = 0; i < count; i++) {
            locks[i] = core.newReadWriteFacade(name + "#" + i, name);
        }
        return new ReadWriteStripesImpl(name, locks);
    }

    @Override
    public int size() {
        return locks.length;
    }

    @Override
    public SwappableReadWriteLock forKey(Object key) {
        Objects.requireNonNull(key, "key must not be null");
        return locks[LockStripesImpl.indexFor(key.hashCode(), locks.length)];
    }

    @Override
    public SwappableReadWriteLock at(int index) {
        Objects.checkIndex(index, locks.length);
        return locks[index];
    }

    /** The facade at {@code index}, for the view's bookkeeping. */
    ReadWriteFacade facade(int index) {
        return locks[index];
    }

    @Override
    public String toString() {
        return "ReadWriteLockStripes[" + name + ", " + locks.length + "]";
    }
}
