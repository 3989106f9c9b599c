package org.rouse.benchmarks.lock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * A Rouse read-write primitive as a {@link ReadWriteLock} with nothing of the facade around it: no reentrancy, no
 * swap check, no counters. Each acquisition makes the calls the facade makes into its primitive on an uncontended
 * and a contended acquisition (a non-waiting attempt, then the waiting one), so that the rows over this adapter and
 * over the facade differ by the facade's own work alone. For benchmarks only: a thread must not take a mode it holds.
 *
 * <pre>{@code
 * ReadWriteLock bare = new PrimitiveReadWriteLock(new StrategyLockEngine(true).newReadWritePrimitive("adaptive"));
 * }</pre>
 */
final class PrimitiveReadWriteLock implements ReadWriteLock {

    private final Lock readLock;
    private final Lock writeLock;

    PrimitiveReadWriteLock(ReadWritePrimitive primitive) {
        this.readLock = new SharedMode(primitive);
        this.writeLock = new ExclusiveMode(primitive);
    }

    @Override
    public Lock readLock() {
        return readLock;
    }

    @Override
    public Lock writeLock() {
        return writeLock;
    }

    /** Shared acquisitions of the primitive. */
    private static final class SharedMode implements Lock {
        private final ReadWritePrimitive primitive;

        SharedMode(ReadWritePrimitive primitive) {
            this.primitive = primitive;
        }

        @Override
        public void lock() {
            if (!primitive.tryLockShared()) {
                primitive.lockShared();
            }
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            if (!primitive.tryLockShared()) {
                primitive.lockSharedInterruptibly();
            }
        }

        @Override
        public boolean tryLock() {
            return primitive.tryLockShared();
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            return primitive.tryLockShared() || primitive.tryLockSharedNanos(unit.toNanos(time));
        }

        @Override
        public void unlock() {
            primitive.unlockShared();
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException("read locks have no conditions");
        }
    }

    /** Exclusive acquisitions of the primitive. */
    private static final class ExclusiveMode implements Lock {
        private final ReadWritePrimitive primitive;

        ExclusiveMode(ReadWritePrimitive primitive) {
            this.primitive = primitive;
        }

        @Override
        public void lock() {
            if (!primitive.tryLock()) {
                primitive.lock();
            }
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            if (!primitive.tryLock()) {
                primitive.lockInterruptibly();
            }
        }

        @Override
        public boolean tryLock() {
            return primitive.tryLock();
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            return primitive.tryLock() || primitive.tryLockNanos(unit.toNanos(time));
        }

        @Override
        public void unlock() {
            primitive.unlock();
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException("the bare primitive has no conditions");
        }
    }
}
