package org.rouse.lock.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * One slow acquisition of an {@code adaptive} primitive ({@link AdaptiveMutex}, and the readers of
 * {@link AdaptiveReadWrite}) while its thread is queued: the node the primitive's queue holds, and the park loop both
 * primitives run until an unlock wakes or grants it. The primitive queues the node under its own monitor and sets
 * {@link #status}; the waiting thread runs {@link #await(Queue)}.
 *
 * <pre>{@code
 * AdaptiveWaiter node = new AdaptiveWaiter(AdaptiveWaiter.Mode.TIMED, deadline);
 * // queue the node under the primitive's monitor, then:
 * int outcome = node.await(primitive); // GRANTED, WOKEN or LEFT
 * }</pre>
 */
final class AdaptiveWaiter {

    /*
     * Implementation notes.
     *
     * Sources. AQS's acquire loop for the interrupt rules: an uninterruptible wait clears interrupts while it parks
     * (parking with the status set would return at once, a busy loop) and sets the status again as it returns, so
     * a caller that waits once more after WOKEN parks at most once in vain per interrupt; an interruptible or timed
     * wait that gives up asks the queue to take the node out, which fails if an unlock granted it the lock
     * meanwhile, and then the caller owns the lock and the interrupt is reported instead.
     *
     * Re-checks. A primitive whose fast release can miss a thread queueing at the same moment (BargingMutex's
     * release store) gives its nodes a re-check interval: the node then parks at most that long at a time, doubling
     * it up to MAX_RECHECK_NANOS, and each time it comes back still WAITING (its interval or a timed wait's deadline
     * over, or an unpark) asks the queue to re-check (Queue.recheck), which wakes the head if the lock is free; a
     * timed wait re-checks before it gives up, so it does not fail over a lock that a missed release left free.
     * HotSpot's ObjectMonitor recovers from the same race with one "responsible" thread that parks with a timeout of
     * 1 ms, growing eightfold up to 1 s. Nodes without an interval (readers of AdaptiveReadWrite, whose protocol
     * cannot miss them) park as before.
     *
     * Invariants. `status` leaves WAITING only by a write under the primitive's monitor (an unlocker's, or a re-check's
     * or a cancelling waiter's passing a missed wake-up on), after which the node is out of the queue; `await` parks
     * only while it reads WAITING, so an unpark that precedes the park is not lost (LockSupport's permit). Each park is
     * counted once, when it is about to happen.
     */

    /** Queued, neither woken nor granted. */
    static final int WAITING = 0;
    /** Taken out of the queue and unparked (by an unlock, or a re-check): compete for the lock again. */
    static final int WOKEN = 1;
    /** Handed the lock by an unlock: the waiting thread holds it. */
    static final int GRANTED = 2;
    /** Returned by {@link #await} when the deadline passed and the node left the queue (never a status). */
    static final int LEFT = 3;

    /** How an acquisition waits. */
    enum Mode {
        UNINTERRUPTIBLE,
        INTERRUPTIBLE,
        TIMED
    }

    /** What the primitive whose queue holds the node provides to its park loop. */
    interface Queue {
        /**
         * Takes {@code node} out of the queue as it gives up (timeout, interrupt), passing on a wake-up it will not
         * use; false if the node was granted the lock meanwhile (the caller holds it), true if it left.
         */
        boolean cancel(AdaptiveWaiter node);

        /** Counts one park of a waiting thread. */
        void countPark();

        /**
         * Called by a node with a re-check interval after any park that leaves it still waiting (its interval or its
         * deadline over, or an unpark): wakes the head of the queue if the lock is free and nobody else will (a
         * wake-up a fast release may have missed).
         */
        default void recheck() {}
    }

    /** The longest park of a node with a re-check interval before it re-checks. */
    static final long MAX_RECHECK_NANOS = 1_000_000_000L;

    /** The waiting thread, which unlockers unpark. */
    final Thread thread;
    /** WAITING, WOKEN or GRANTED; written by the waiting thread before it queues, then by others under the monitor. */
    volatile int status;

    private final Mode mode;
    /** The {@code System.nanoTime()} deadline of a TIMED wait; unused otherwise. */
    private final long deadline;
    /**
     * How long the next park lasts at most before a re-check, 0 for never; set by the waiting thread itself as the
     * primitive queues the node, doubled by it after each re-check (up to MAX_RECHECK_NANOS). Only that thread
     * touches it.
     */
    long recheckNanos;
    /** A node for the calling thread's acquisition in {@code mode}, until {@code deadline} if TIMED. */
    AdaptiveWaiter(Mode mode, long deadline) {
        this.thread = Thread.currentThread();
        this.mode = mode;
        this.deadline = deadline;
    }

    /**
     * Parks until the node leaves WAITING. Returns GRANTED (the caller holds the lock), WOKEN (compete again) or, for
     * a TIMED wait whose deadline passed, LEFT (the node left the queue). An INTERRUPTIBLE or TIMED wait that is
     * interrupted leaves the queue and throws, unless it was granted meanwhile (then GRANTED, with the interrupt
     * status set); an UNINTERRUPTIBLE wait returns with the status set if it was interrupted.
     *
     * @throws InterruptedException if interrupted while waiting in INTERRUPTIBLE or TIMED mode, after leaving
     */
    int await(Queue queue) throws InterruptedException {
        boolean interrupted = false;
        try {
            for (; ; ) {
                int st = status;
                if (st != WAITING) {
                    return st;
                }
                long timeout = 0L; // none
                if (mode == Mode.TIMED) {
                    timeout = deadline - System.nanoTime();
                    if (timeout <= 0L) {
                        return queue.cancel(this) ? LEFT : GRANTED;
                    }
                }
                long recheck = recheckNanos;
                boolean rechecking = recheck > 0L && (timeout == 0L || recheck < timeout);
                queue.countPark();
                if (rechecking) {
                    LockSupport.parkNanos(queue, recheck);
                } else if (timeout > 0L) {
                    LockSupport.parkNanos(queue, timeout);
                } else {
                    LockSupport.park(queue);
                }
                if (recheck > 0L && status == WAITING) {
                    if (rechecking) {
                        recheckNanos = Math.min(2 * recheck, MAX_RECHECK_NANOS);
                    }
                    queue.recheck(); // also before a timed wait gives up: the lock may have been free all along
                }
                if (Thread.interrupted()) {
                    if (mode == Mode.UNINTERRUPTIBLE) {
                        interrupted = true; // parking again with the status set would return at once
                    } else if (queue.cancel(this)) {
                        throw new InterruptedException();
                    } else {
                        interrupted = true; // granted meanwhile: the caller holds the lock, report the interrupt
                        return GRANTED;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
