package org.rouse.lock.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Strategy {@code adaptive}, the default: a barging three-state lock that spins briefly, for about as long as the
 * lock is usually held, then parks; unlock wakes a waiter only when one may be parked; and a waiter that has waited
 * longer than the fairness bound (about 1 ms) is handed the lock directly.
 */
final class AdaptiveMutex extends QueuedMutex {

    /*
     * Implementation notes.
     *
     * Sources. U. Drepper, "Futexes Are Tricky" (2011), mutex #3: the word 0/1/2, waiters exchange 2 into the word
     * before sleeping and unlock wakes only if it read 2. glibc's PTHREAD_MUTEX_ADAPTIVE_NP: before sleeping, spin with
     * trylock up to min(max, 2 * estimate + 10) times and move the estimate an eighth of the way towards the spins just
     * needed. WebKit's WTF::Lock / ParkingLot and Rust's parking_lot: barging (a released lock goes to whoever CASes
     * first, which keeps running threads running instead of convoying behind a sleeping one), a queue of parked threads
     * outside the lock word, and eventual fairness by handing the lock to a parked thread directly from time to time.
     * The wake-up limit follows AQS: at most one woken waiter "in flight".
     *
     * Layout. The word and the waiter queue of QueuedMutex; `woken`, the waiter an unlock has unparked and that is not
     * yet running (set under the queue monitor, cleared by CAS); `spinEstimate`, the smoothed spin count.
     *
     * Algorithm. Acquire (QueuedMutex has the fast path CAS(FREE, HELD)): (1) spin: while the word is not CONTENDED
     * (nobody is parked, so the holder is likely to release soon) and the adaptive budget lasts, try CAS(FREE, HELD)
     * after each Thread.onSpinWait(). (2) queue the node (monitor), then loop: if granted, done; getAndSet(CONTENDED):
     * if it returned FREE we hold the lock (marked CONTENDED, conservatively: we leave the queue and, if it is empty,
     * CAS(CONTENDED, HELD) under the monitor); else park.
     *
     * Release: CAS(HELD, FREE); if the word was CONTENDED, under the monitor: if the head has waited longer than the
     * bound, hand it the lock (QueuedMutex.grant); else store FREE and, unless a woken waiter is already on its way
     * (woken != null), unpark the head and remember it in woken. The woken thread clears woken (CAS) as soon as its
     * park returns, before it exchanges 2 into the word. A node that leaves the queue by acquiring or by a grant clears
     * woken too if it still names it: an unlock may have chosen it while it was between queueing and its first park,
     * and a stale woken would silence every later unlock.
     *
     * Adaptive spin. spinEstimate is a plain field updated racily by spinners (a lost update only delays the
     * adaptation; glibc does the same with a plain int). It moves toward the spins a successful spin needed, and toward
     * the limit after a failed spin. Spinning stops as soon as the word says someone is parked: then the holder is
     * likely to run long, or to be preempted, and spinning would only steal its core.
     *
     * Invariants.
     * 1. (I1) A thread parks only after it queued and then exchanged CONTENDED into the word (or while granted is
     *    pending).
     * 2. (I2) If the queue is not empty then the word is CONTENDED, or a woken waiter is in flight and will exchange
     *    CONTENDED into the word before it parks again. Proof sketch of "no lost wake-up": an unlocker that stores FREE
     *    either wakes the head itself, or read woken != null; in the latter case the woken thread clears it after the
     *    unlocker's store (the unlocker read it non-null after storing FREE), so its following exchange sees FREE or a
     *    later holder's value; in both cases the word is CONTENDED again while waiters remain, and the next unlock
     *    takes the slow path. A cancelled waiter (timeout, interrupt) that may have consumed a wake-up (woken was it or
     *    is null) passes it on to the new head. A barger's CAS(FREE, HELD) may hide the 2 while a waiter is queued, but
     *    only while a wake is in flight (I2), whose exchange restores it.
     * 3. (I3) A hand-off never frees the word, so no barger overtakes the head once it is due.
     *
     * Costs. Uncontended, a lock/unlock pair is two CAS (QueuedMutex). Contended, an unlock unparks at most one waiter
     * while a woken one is in flight (woken != null), so a release never wakes a crowd.
     */

    static final String STRATEGY = "adaptive";

    private static final VarHandle WOKEN;

    static {
        try {
            WOKEN = MethodHandles.lookup().findVarHandle(AdaptiveMutex.class, "woken", Waiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The engine's current tuning; read on the slow path only. */
    private final Supplier<AdaptiveTuning> tuning;
    /** The waiter woken by an unlock and not yet running, or null; set under the queue monitor, cleared by CAS. */
    @SuppressWarnings("unused") // accessed through WOKEN
    private volatile Waiter woken;
    /** Smoothed spins a successful spin needed; plain, racy by design (see the notes). */
    private int spinEstimate;

    AdaptiveMutex(Supplier<AdaptiveTuning> tuning) {
        this.tuning = tuning;
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    boolean tryBeforeQueueing() {
        int estimate = spinEstimate;
        int limit = Math.min(tuning.get().maxSpins(), 2 * estimate + 10);
        for (int i = 0; i < limit; i++) {
            int s = state();
            if (s == FREE && casState(FREE, HELD)) {
                spinEstimate = estimate + (i - estimate) / 8;
                countSpins(i);
                return true;
            }
            if (s == CONTENDED) {
                countSpins(i);
                return false; // threads are parked: the holder is slow, queue behind them
            }
            Thread.onSpinWait();
        }
        spinEstimate = estimate + (limit - estimate) / 8;
        countSpins(limit);
        return false;
    }

    @Override
    boolean enqueue(Waiter node) {
        queue.addLast(node);
        return false;
    }

    @Override
    boolean tryAcquireQueued(Waiter node) {
        if (getAndSetState(CONTENDED) != FREE) {
            return false;
        }
        synchronized (queue) {
            queue.remove(node);
            // an unlock may have chosen us as the woken waiter before we ever parked: we are no longer in flight
            WOKEN.compareAndSet(this, node, (Waiter) null);
            if (queue.isEmpty()) {
                casState(CONTENDED, HELD); // nobody left to wake: let our unlock take the fast path
            }
        }
        return true;
    }

    @Override
    void afterWake(Waiter node) {
        WOKEN.compareAndSet(this, node, (Waiter) null);
    }

    @Override
    void unlockSlow() {
        Thread wake = null;
        synchronized (queue) {
            Waiter head = queue.peekFirst();
            if (head != null && System.nanoTime() - head.since >= tuning.get().fairnessBoundNanos()) {
                queue.pollFirst();
                WOKEN.compareAndSet(this, head, (Waiter) null); // the new owner restores nothing: it holds the lock
                wake = grant(head);
            } else {
                setState(FREE);
                if (head != null && WOKEN.getVolatile(this) == null) {
                    WOKEN.setVolatile(this, head);
                    wake = head.thread;
                }
            }
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }

    @Override
    Thread afterCancel(Waiter node) {
        Waiter inFlight = (Waiter) WOKEN.getVolatile(this);
        if (inFlight != null && inFlight != node) {
            return null; // another woken waiter will restore CONTENDED
        }
        Waiter head = queue.peekFirst();
        WOKEN.setVolatile(this, head);
        return head == null ? null : head.thread;
    }
}
