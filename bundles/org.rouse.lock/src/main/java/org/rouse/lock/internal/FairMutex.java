package org.rouse.lock.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.rouse.lock.spi.LockPrimitive;

/**
 * Strategy {@code fair}: first come, first served.
 *
 * <p>Implementation notes: for now a fair {@link ReentrantLock}, which grants the lock in FIFO order of arrival but
 * is not a strict hand-off (the released lock is free until the woken head of the queue takes it; a newcomer sees
 * the queued predecessor and queues behind it rather than barging). A strict hand-off lock, where the releasing
 * thread passes ownership to the head directly, is left to the issue that tunes the strategies. The untimed
 * {@code ReentrantLock.tryLock()} ignores fairness, so {@link #tryLock()} uses the timed form with zero wait, which
 * honours it: the facade's first, non-waiting attempt must not overtake queued threads either.
 */
final class FairMutex implements LockPrimitive {

    static final String STRATEGY = "fair";

    private final ReentrantLock lock = new ReentrantLock(true);

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    public void lock() {
        lock.lock();
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        lock.lockInterruptibly();
    }

    @Override
    public boolean tryLock() {
        // the timed form checks the interrupt status on entry; a non-waiting tryLock must not care, so hide it
        boolean interrupted = Thread.interrupted();
        try {
            return lock.tryLock(0L, TimeUnit.NANOSECONDS);
        } catch (InterruptedException impossible) {
            interrupted = true; // the status was cleared and a zero wait never parks
            return false;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        return lock.tryLock(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void unlock() {
        lock.unlock();
    }

    @Override
    public boolean isLocked() {
        return lock.isLocked();
    }
}
