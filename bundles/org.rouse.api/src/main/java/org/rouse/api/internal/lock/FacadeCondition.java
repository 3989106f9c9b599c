package org.rouse.api.internal.lock;

import java.util.ArrayDeque;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.rouse.api.internal.Arguments;

/**
 * A {@link Condition} of a swappable facade (plain lock or read-write lock's write lock) whose wait queue lives in the
 * facade, so it survives swaps of the primitive underneath.
 *
 * <pre>{@code
 * Condition notEmpty = new FacadeCondition(host); // host: the facade's check, full release and reacquire
 * }</pre>
 */
final class FacadeCondition implements Condition {

    /*
     * Implementation notes.
     *
     * Sources. AQS's ConditionObject: a FIFO of nodes per condition, a node's status changed by CAS.
     *
     * Invariants. The queue is touched only by the facade's (exclusive) holder, so the facade lock guards it. A node
     * moves WAITING -> SIGNALLED (signal) or WAITING -> CANCELLED (timeout or interrupt) by CAS, so a signal either
     * wakes a waiter that will return normally or skips a cancelled one and goes on to the next: never both, never
     * neither. await releases the full hold count through the facade's normal release (which also completes pending
     * swaps), parks until its node leaves WAITING, then reacquires like lock() and restores the hold count.
     */

    /** What a condition needs of its facade. */
    interface Host {
        /** Throws {@link IllegalMonitorStateException} unless the calling thread holds the facade exclusively. */
        void checkHeld();

        /** Releases every exclusive hold of the calling holder; returns the hold count to restore. */
        int releaseFully();

        /** Acquires exclusively, ignoring interrupts, and restores {@code saved} holds. */
        void reacquire(int saved);
    }

    /** A waiter of a condition; state moves once, by CAS, from WAITING to SIGNALLED or CANCELLED. */
    private static final class Waiter extends AtomicInteger {
        private static final long serialVersionUID = 1L;
        static final int WAITING = 0;
        static final int SIGNALLED = 1;
        static final int CANCELLED = 2;

        final transient Thread thread;

        Waiter(Thread thread) {
            super(WAITING);
            this.thread = thread;
        }

        boolean waiting() {
            return get() == WAITING;
        }

        boolean signal() {
            return compareAndSet(WAITING, SIGNALLED);
        }

        boolean cancel() {
            return compareAndSet(WAITING, CANCELLED);
        }
    }

    private final Host host;

    FacadeCondition(Host host) {
        this.host = host;
    }

    /** FIFO wait queue; read and written only by facade holders. */
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

    @Override
    public void await() throws InterruptedException {
        awaitInternal(0L, false, true);
    }

    @Override
    public void awaitUninterruptibly() {
        try {
            awaitInternal(0L, false, false);
        } catch (InterruptedException impossible) {
            throw new AssertionError(impossible);
        }
    }

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        return awaitInternal(nanosTimeout, true, true);
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        Arguments.notNull(unit, "unit");
        return awaitInternal(unit.toNanos(time), true, true) > 0L;
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        Arguments.notNull(deadline, "deadline");
        long millis = deadline.getTime() - System.currentTimeMillis();
        return awaitInternal(TimeUnit.MILLISECONDS.toNanos(millis), true, true) > 0L;
    }

    @Override
    public void signal() {
        host.checkHeld();
        for (Waiter w; (w = waiters.pollFirst()) != null; ) {
            if (w.signal()) {
                LockSupport.unpark(w.thread);
                return;
            }
        }
    }

    @Override
    public void signalAll() {
        host.checkHeld();
        for (Waiter w; (w = waiters.pollFirst()) != null; ) {
            if (w.signal()) {
                LockSupport.unpark(w.thread);
            }
        }
    }

    /**
     * Waits for a signal, the timeout (if timed) or an interrupt (if interruptible). Returns the time left:
     * positive if signalled (at least 1), {@code <= 0} after the timeout; 1 when untimed.
     */
    private long awaitInternal(long nanos, boolean timed, boolean interruptible) throws InterruptedException {
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread me = Thread.currentThread();
        host.checkHeld();
        Waiter node = new Waiter(me);
        waiters.addLast(node);
        int saved = host.releaseFully();
        long start = timed ? System.nanoTime() : 0L;
        long remaining = nanos;
        boolean cancelledByInterrupt = false;
        boolean interruptedAfterSignal = false;
        while (node.waiting()) {
            if (timed) {
                remaining = nanos - (System.nanoTime() - start);
                if (remaining <= 0L) {
                    node.cancel(); // fails only if just signalled: then the loop ends normally
                    continue;
                }
                LockSupport.parkNanos(this, remaining);
            } else {
                LockSupport.park(this);
            }
            if (Thread.interrupted()) {
                if (interruptible && node.cancel()) {
                    cancelledByInterrupt = true;
                } else {
                    interruptedAfterSignal = true;
                }
            }
        }
        host.reacquire(saved);
        if (node.get() == Waiter.CANCELLED) {
            waiters.remove(node); // a signal may not have skipped it yet
        }
        if (cancelledByInterrupt) {
            throw new InterruptedException();
        }
        if (interruptedAfterSignal) {
            me.interrupt();
        }
        if (!timed) {
            return 1L;
        }
        long left = nanos - (System.nanoTime() - start);
        // signalled in time: report "time left" even if reacquiring ate it, as await(time, unit) must say true
        return node.get() == Waiter.CANCELLED ? Math.min(left, 0L) : Math.max(left, 1L);
    }
}
