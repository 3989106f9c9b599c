package org.rouse.lock.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.rouse.lock.spi.LockPrimitive;

/**
 * Strategy {@code jdk}: the JDK's non-fair {@link ReentrantLock}, used as a plain mutex (the facade never enters it
 * twice from one thread). A spin-free, park-based, barging lock: the baseline every other strategy is compared to.
 */
final class JdkMutex implements LockPrimitive {

    static final String STRATEGY = "jdk";

    private final ReentrantLock lock = new ReentrantLock(false);

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
        return lock.tryLock();
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
