package org.rouse.cluster.internal;

import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.rouse.lock.FencedReadWriteLock;
import org.rouse.lock.LockStatistics;

/**
 * A cluster read-write lock over Curator's {@link InterProcessReadWriteLock}: two {@link ZkLock}s, one per side.
 * A writer may also take the read lock; a reader that asks for the write lock waits forever (as with the JDK's
 * {@code ReentrantReadWriteLock}).
 *
 * <pre>{@code
 * FencedReadWriteLock routes = provider.readWriteLock("cluster.routes");
 * routes.readLock().lock();
 * try { ... } finally { routes.readLock().unlock(); }
 * }</pre>
 */
final class ZkReadWriteLock implements FencedReadWriteLock {

    private final String name;
    private final ZkLock read;
    private final ZkLock write;

    ZkReadWriteLock(ZkLockProvider provider, String name, InterProcessReadWriteLock lock) {
        this.name = name;
        InterProcessReadWriteLock.ReadLock readMutex = lock.readLock();
        InterProcessReadWriteLock.WriteLock writeMutex = lock.writeLock();
        this.read = new ZkLock(provider, name, "cluster-read", readMutex, readMutex::getLockPath, path -> 0);
        this.write = new ZkLock(provider, name, "cluster-write", writeMutex, writeMutex::getLockPath, path -> 0);
    }

    @Override
    public ZkLock readLock() {
        return read;
    }

    @Override
    public ZkLock writeLock() {
        return write;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String strategy() {
        return "cluster";
    }

    @Override
    public boolean isWriteLockedByCurrentThread() {
        return write.isHeldByCurrentThread();
    }

    @Override
    public int writeHoldCount() {
        return write.holdCount();
    }

    @Override
    public int readHoldCount() {
        return read.holdCount();
    }

    /** Whether a thread of this process holds the write lock (other processes are not asked). */
    @Override
    public boolean isWriteLocked() {
        return write.isLocked();
    }

    /** The write lock's counters (the read lock's are {@code readLock().statistics()}). */
    @Override
    public LockStatistics statistics() {
        return write.statistics();
    }

    @Override
    public String toString() {
        return "FencedReadWriteLock[" + name + "]";
    }
}
