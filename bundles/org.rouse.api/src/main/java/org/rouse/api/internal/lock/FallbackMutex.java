package org.rouse.api.internal.lock;

import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import org.rouse.lock.spi.LockPrimitive;

/**
 * The primitive every facade uses while no lock engine is registered: a small non-reentrant mutex, so that a lock
 * can always be taken and no facade keeps a class loader of an engine that went away.
 */
final class FallbackMutex implements LockPrimitive {

    /*
     * Implementation notes.
     *
     * Sources. The textbook exclusive AbstractQueuedSynchronizer (state 0 = free, 1 = held; acquire by CAS 0 -> 1,
     * release by a volatile store of 0, which is the release ordering the facade's swap protocol relies on).
     *
     * Costs. Not fair: a releasing thread may be overtaken by a newcomer, as with ReentrantLock().
     */

    /** The strategy name facades report while they use this primitive. */
    static final String STRATEGY = "fallback";

    private final Sync sync = new Sync();

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    public void lock() {
        sync.acquire(1);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        sync.acquireInterruptibly(1);
    }

    @Override
    public boolean tryLock() {
        return sync.tryAcquire(1);
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        return sync.tryAcquireNanos(1, nanos);
    }

    @Override
    public void unlock() {
        sync.release(1);
    }

    @Override
    public boolean isLocked() {
        return sync.held();
    }

    /** State 0 = free, 1 = held; written by CAS (acquire) and volatile store (release). */
    private static final class Sync extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean tryAcquire(int ignored) {
            return getState() == 0 && compareAndSetState(0, 1);
        }

        @Override
        protected boolean tryRelease(int ignored) {
            setState(0);
            return true;
        }

        boolean held() {
            return getState() != 0;
        }
    }
}
