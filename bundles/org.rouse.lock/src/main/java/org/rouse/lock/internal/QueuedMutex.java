package org.rouse.lock.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import org.rouse.lock.spi.LockPrimitive;

/**
 * A mutex on a three-state word whose waiters park in their own FIFO queue: the base of {@code fair}. Subclasses decide how a thread tries before it queues, how a queued thread competes, and what an
 * unlock that finds waiters does.
 */
abstract class QueuedMutex implements LockPrimitive {

    /*
     * Implementation notes.
     *
     * Sources. U. Drepper, "Futexes Are Tricky" (2011), mutex #3 (the three-state word); WebKit's ParkingLot (a queue
     * of parked threads outside the lock word); AQS (park/unpark with a permit, re-checked in a loop).
     *
     * Layout. The state word: `FREE` 0, `HELD` 1 (no thread queued since it was taken), `CONTENDED` 2 (held, and a
     * queued thread may be parked). Lock's fast path is CAS(FREE, HELD); unlock's fast path is CAS(HELD, FREE), which
     * succeeds exactly when nobody queued, so an uncontended lock/unlock pair never touches the queue.
     *
     * The queue. Java has no futex, so the kernel's wait queue keyed by the word's address is replaced by an ArrayDeque
     * of Waiter nodes guarded by its own monitor (WebKit's ParkingLot keeps one such queue per hashed address, guarded
     * by a word lock; AQS keeps a lock-free CLH variant). The monitor is held only for a few instructions (add, remove,
     * peek), never while parking. A queued thread parks with LockSupport.park, whose permit makes an unpark that comes
     * before the park harmless; every park sits in a loop that re-checks its condition, so spurious returns are
     * harmless too. The futex rule "sleep only if the word is still 2" becomes: enqueue under the monitor first, then
     * write 2 to the word (subclasses), then park; an unlocker that reads 2 takes the monitor and so sees every waiter
     * that wrote 2 before.
     *
     * Algorithm. Hand-off: an unlocker may pass ownership to the head waiter without ever freeing the word: it removes
     * the node, writes the word's new held state, then sets Waiter.granted (volatile) and unparks it. Because the word
     * stays non-zero, no barger can slip in between. The order (word first, then granted) matters: the new owner may
     * unlock at once, and its CAS(HELD, FREE) must not be overwritten.
     *
     * Cancellation (timeout, interrupt): under the monitor, a node already granted means the thread owns the lock and
     * returns as if it had acquired it; otherwise the node leaves the queue and the subclass may pass on a wake-up it
     * consumed (`afterCancel`).
     *
     * Invariants.
     * 1. A waiter writes CONTENDED into the word after queueing under the monitor (AdaptiveMutex) or in the same
     *    critical section as queueing (FairMutex), and parks only after that; so an unlocker that reads CONTENDED and
     *    takes the monitor sees every waiter that may be parked.
     * 2. A hand-off never frees the word, and writes the word's new held state before Waiter.granted, so no barger
     *    slips in and the new owner's own unlock is never overwritten.
     *
     * Costs. An uncontended lock/unlock pair costs two CAS. The monitor is held for a few deque operations, never while
     * parking. Counters: parks and spins are added with atomic adds on the slow path only; handoffs is written under
     * the queue monitor.
     */

    static final int FREE = 0;
    static final int HELD = 1;
    static final int CONTENDED = 2;

    private static final VarHandle STATE;
    private static final VarHandle PARKS;
    private static final VarHandle SPINS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(QueuedMutex.class, "state", int.class);
            PARKS = lookup.findVarHandle(QueuedMutex.class, "parks", long.class);
            SPINS = lookup.findVarHandle(QueuedMutex.class, "spins", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** FREE, HELD or CONTENDED; CAS/getAndSet by lockers, volatile store by unlockers (see the class notes). */
    private volatile int state;
    /** Waiting threads, oldest first; guarded by its own monitor. */
    final ArrayDeque<Waiter> queue = new ArrayDeque<>();
    /** Parks performed; atomic add by waiters. */
    private volatile long parks;
    /** Spin iterations performed; atomic add by spinners, once per acquisition. */
    private volatile long spins;
    /** Direct hand-offs to a queued thread; written under the queue monitor. */
    long handoffs;

    /** A queued thread; {@code granted} is set (volatile) by the unlocker that hands it the lock. */
    static final class Waiter {
        final Thread thread;
        /** When it started waiting ({@code System.nanoTime()}), for eventual fairness. */
        final long since;
        /** Set by an unlocker that handed the lock to this waiter; read by the waiter. */
        volatile boolean granted;

        Waiter(Thread thread, long since) {
            this.thread = thread;
            this.since = since;
        }
    }

    private enum Mode {
        UNINTERRUPTIBLE,
        INTERRUPTIBLE,
        TIMED
    }

    @Override
    public final void lock() {
        if (!STATE.compareAndSet(this, FREE, HELD)) {
            try {
                acquireSlow(Mode.UNINTERRUPTIBLE, 0L);
            } catch (InterruptedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }

    @Override
    public final void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!STATE.compareAndSet(this, FREE, HELD)) {
            acquireSlow(Mode.INTERRUPTIBLE, 0L);
        }
    }

    @Override
    public final boolean tryLock() {
        return state == FREE && STATE.compareAndSet(this, FREE, HELD);
    }

    @Override
    public final boolean tryLockNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (STATE.compareAndSet(this, FREE, HELD)) {
            return true;
        }
        return nanos > 0L && acquireSlow(Mode.TIMED, nanos);
    }

    @Override
    public final void unlock() {
        if (!STATE.compareAndSet(this, HELD, FREE)) {
            unlockSlow();
        }
    }

    @Override
    public final boolean isLocked() {
        return state != FREE;
    }

    @Override
    public final long spins() {
        return spins;
    }

    @Override
    public final long parks() {
        return parks;
    }

    @Override
    public final long handoffs() {
        synchronized (queue) {
            return handoffs;
        }
    }

    /** Tries before queueing (e.g. a bounded spin); true if the caller now holds the lock. */
    abstract boolean tryBeforeQueueing();

    /** Queues {@code node}, or takes the lock instead (return true). Called holding the queue monitor. */
    abstract boolean enqueue(Waiter node);

    /** A queued, not granted thread's attempt to take the lock; true if it now holds it (and left the queue). */
    abstract boolean tryAcquireQueued(Waiter node);

    /** Called by a queued thread each time its park returns. */
    void afterWake(Waiter node) {}

    /** Unlock when the word is not HELD: somebody may be queued. */
    abstract void unlockSlow();

    /** Called under the queue monitor after a cancelled node left the queue; returns a thread to unpark, or null. */
    abstract Thread afterCancel(Waiter node);

    final int state() {
        return state;
    }

    final boolean casState(int expected, int next) {
        return STATE.compareAndSet(this, expected, next);
    }

    final int getAndSetState(int next) {
        return (int) STATE.getAndSet(this, next);
    }

    final void setState(int next) {
        state = next;
    }

    final void countSpins(long n) {
        if (n > 0) {
            SPINS.getAndAdd(this, n);
        }
    }

    /** Called under the queue monitor by an unlocker that owns the lock: passes it to {@code head} (already polled). */
    final Thread grant(Waiter head) {
        setState(queue.isEmpty() ? HELD : CONTENDED); // before granted: the new owner may unlock at once
        head.granted = true;
        handoffs++;
        return head.thread;
    }

    private boolean acquireSlow(Mode mode, long nanos) throws InterruptedException {
        long deadline = mode == Mode.TIMED ? System.nanoTime() + nanos : 0L;
        if (tryBeforeQueueing()) {
            return true;
        }
        Waiter node = new Waiter(Thread.currentThread(), System.nanoTime());
        synchronized (queue) {
            if (enqueue(node)) {
                return true;
            }
        }
        boolean interrupted = false;
        try {
            for (; ; ) {
                if (node.granted || tryAcquireQueued(node)) {
                    return true;
                }
                if (mode == Mode.TIMED) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0L) {
                        return !cancel(node); // granted meanwhile: we own it
                    }
                    PARKS.getAndAdd(this, 1L);
                    LockSupport.parkNanos(this, left);
                } else {
                    PARKS.getAndAdd(this, 1L);
                    LockSupport.park(this);
                }
                afterWake(node);
                if (Thread.interrupted()) {
                    if (mode != Mode.UNINTERRUPTIBLE && cancel(node)) {
                        throw new InterruptedException();
                    }
                    interrupted = true; // keep waiting (lock) or we were granted: report it on return
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Leaves the queue unless already granted; returns true if cancelled, false if the caller owns the lock. */
    private boolean cancel(Waiter node) {
        Thread wake;
        synchronized (queue) {
            if (node.granted) {
                return false;
            }
            queue.remove(node);
            wake = afterCancel(node);
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
        return true;
    }
}
