package org.rouse.lock.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * Strategy {@code fair}: strict first come, first served. An unlock that finds waiters hands the lock to the oldest
 * one directly; nobody can overtake a queued thread, not even {@code tryLock}.
 *
 * <p>Costs a context switch per contended acquisition (the lock stays idle until the woken head runs), so its
 * throughput collapses when threads outnumber cores: use it where order matters more than speed.
 */
final class FairMutex extends QueuedMutex {

    /*
     * Implementation notes.
     *
     * Algorithm. A hand-off queue lock on QueuedMutex's word. Waiters never compete: a thread that finds the lock taken
     * moves the word from HELD to CONTENDED and queues, both under the queue monitor, and then only waits for granted.
     * Unlock's fast path CAS(HELD, FREE) succeeds only when nobody queued; its slow path (under the monitor) polls the
     * head and grants it the lock, or stores FREE if cancellations emptied the queue. Nothing spins.
     *
     * Invariants.
     * 1. FREE implies an empty queue (a thread queues only while the word is not FREE, under the monitor, and the word
     *    becomes FREE from CONTENDED only under the monitor with the queue empty), so the fast path CAS(FREE, HELD) of
     *    lock and tryLock never overtakes a queued thread: arrival order is the order in which threads found the lock
     *    taken.
     */

    static final String STRATEGY = "fair";

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    boolean tryBeforeQueueing() {
        return false;
    }

    @Override
    boolean enqueue(Waiter node) {
        for (; ; ) {
            int s = state();
            if (s == FREE) {
                if (casState(FREE, HELD)) {
                    return true;
                }
            } else if (s == CONTENDED || casState(HELD, CONTENDED)) {
                queue.addLast(node);
                return false;
            }
        }
    }

    @Override
    boolean tryAcquireQueued(Waiter node) {
        return false; // only a hand-off admits a queued thread
    }

    @Override
    void unlockSlow() {
        Thread wake = null;
        synchronized (queue) {
            Waiter head = queue.pollFirst();
            if (head == null) {
                setState(FREE);
            } else {
                wake = grant(head);
            }
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }

    @Override
    Thread afterCancel(Waiter node) {
        return null; // nobody competes, so a leaving waiter takes no wake-up from anyone
    }
}
