package org.rouse.lock.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * Read-write strategy {@code jdk}: the JDK's non-fair {@link ReentrantReadWriteLock}, used without reentry (the facade
 * never enters a mode twice from one thread). The baseline the {@code adaptive} read-write strategy is compared to.
 *
 * <pre>{@code
 * ReadWritePrimitive rw = new StrategyLockEngine().newReadWritePrimitive("jdk");
 * rw.lockShared();
 * rw.unlockShared();
 * }</pre>
 */
final class JdkReadWrite implements ReadWritePrimitive {

    /*
     * Implementation notes.
     *
     * Sources. The JDK's ReentrantReadWriteLock (non-fair): readers block behind a queued writer at the head of the
     * queue ("apparentlyFirstQueuedIsExclusive"), so writers do not starve in practice. Its releases end in a
     * volatile write of the AQS state, the release ordering the facade's swap protocol relies on.
     *
     * Invariants. A shared attempt that does not wait never overtakes a queued writer (tryLockShared). The facade
     * never enters a mode twice from one thread; a downgrade takes the read lock while
     * holding the write lock and then releases the write lock, which ReentrantReadWriteLock allows and which no
     * writer can overtake.
     */

    static final String STRATEGY = "jdk";

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(false);

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    public void lock() {
        lock.writeLock().lock();
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        lock.writeLock().lockInterruptibly();
    }

    @Override
    public boolean tryLock() {
        return lock.writeLock().tryLock();
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        return lock.writeLock().tryLock(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void unlock() {
        lock.writeLock().unlock();
    }

    @Override
    public void lockShared() {
        lock.readLock().lock();
    }

    @Override
    public void lockSharedInterruptibly() throws InterruptedException {
        lock.readLock().lockInterruptibly();
    }

    /**
     * Unlike the read lock's barging {@code tryLock()}, does not overtake a writer at the head of the queue, just as
     * the read lock's {@code lock()} does not: a timed attempt with no time applies {@code lock()}'s rule and never
     * waits. The facade starts every read acquisition here, so a barging attempt would let overlapping readers keep
     * a queued writer out indefinitely. With the interrupt status set (which the timed attempt would throw for), it
     * falls back to the barging attempt and keeps the status.
     */
    @Override
    public boolean tryLockShared() {
        if (!Thread.currentThread().isInterrupted()) {
            try {
                return lock.readLock().tryLock(0L, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // interrupted just now: keep the status
            }
        }
        return lock.readLock().tryLock();
    }

    @Override
    public boolean tryLockSharedNanos(long nanos) throws InterruptedException {
        return lock.readLock().tryLock(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void unlockShared() {
        lock.readLock().unlock();
    }

    @Override
    public void downgrade() {
        lock.readLock().lock();
        lock.writeLock().unlock();
    }

    @Override
    public boolean isWriteLocked() {
        return lock.isWriteLocked();
    }

    @Override
    public boolean isLocked() {
        return lock.isWriteLocked() || lock.getReadLockCount() > 0;
    }
}
