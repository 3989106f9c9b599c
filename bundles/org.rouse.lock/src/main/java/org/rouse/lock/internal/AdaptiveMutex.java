package org.rouse.lock.internal;

import static org.rouse.lock.internal.AdaptiveWaiter.GRANTED;
import static org.rouse.lock.internal.AdaptiveWaiter.WAITING;
import static org.rouse.lock.internal.AdaptiveWaiter.WOKEN;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.rouse.lock.internal.AdaptiveWaiter.Mode;
import org.rouse.lock.spi.BargingMutex;

/**
 * Strategy {@code adaptive}, the default: a barging lock with eventual fairness. A thread that finds the lock held
 * spins briefly (about as long as the lock is usually held, and only while nobody is parked), then parks; unlock
 * frees the lock and wakes one parked thread, which competes for it with running threads; and about once per
 * fairness interval (on average half of {@code adaptive.fairness.bound.us}, randomized) an unlock hands the lock
 * directly to the longest-queued thread instead, so no thread starves and no FIFO convoy forms.
 *
 * <pre>{@code
 * LockPrimitive mutex = new StrategyLockEngine().newPrimitive("adaptive");
 * mutex.lock();
 * try {
 *     // ...
 * } finally {
 *     mutex.unlock();
 * }
 * }</pre>
 */
final class AdaptiveMutex extends BargingMutex implements AdaptiveWaiter.Queue {

    /*
     * Implementation notes.
     *
     * Sources. Rust parking_lot's RawMutex (lock word with LOCKED and PARKED bits; barging; spin only while nobody is
     * parked; unlock_slow unparks one thread and, when the "be fair" timer of the queue has expired, hands the lock
     * over without ever clearing LOCKED; the timer is re-armed at a random point in the next 0..1 ms). F. Pizlo,
     * "Locking in WebKit" (2016): WTF::Lock keeps the same two bits and the same eventual fairness ("on average once
     * per millisecond"), with the queue of parked threads outside the lock word (ParkingLot). glibc's
     * PTHREAD_MUTEX_ADAPTIVE_NP for the spin length: spin up to min(max, 2 * estimate + 10) times and move the
     * estimate an eighth of the way towards the spins just needed. AQS for "at most one woken waiter in flight".
     *
     * Layout. `state`: bit LOCKED (held) and bit PARKED (the queue is not empty). `queue`: the parked threads' nodes,
     * oldest first, an ArrayDeque guarded by its own monitor (Java has no futex; the monitor plays ParkingLot's bucket
     * lock and is held for a few instructions, never while parking). `fairness`: the per-lock fairness timer
     * (FairnessTimer), read and re-armed only by unlockers under the monitor. `woken`: the node an unlock woke that has
     * not yet run.
     *
     * Acquire. Fast path (final in BargingMutex, so the front's facades inline it; the slow paths below are its
     * lockContended, lockInterruptiblyContended, unlockContended and releasedWhileQueued): read the word, and CAS in
     * LOCKED if it is clear, keeping PARKED (a barging acquisition; a blind CAS(0, LOCKED) would fail whenever threads
     * are parked, and a failed CAS costs what a successful one does, which was a fifth of an acquisition at 16
     * threads). Slow path, in a loop: (1) while LOCKED is clear, CAS in LOCKED keeping PARKED (barging: whoever CASes
     * first wins, parked threads included); while LOCKED is set and PARKED clear, spin with Thread.onSpinWait() up to
     * the adaptive limit. (2) Under the monitor: if LOCKED is clear, retry (1); else set BargingMutex's `queued` flag,
     * then PARKED, and queue the node (at the tail; at the head if the node was woken before and lost the race, so it
     * keeps its place). (3) Park until the node's status leaves WAITING (AdaptiveWaiter.await, the park loop shared
     * with AdaptiveReadWrite's readers): GRANTED means the lock was handed over (we own it), WOKEN means an unlock
     * removed us from the queue: clear `woken` and go to (1).
     *
     * Release. Fast path (BargingMutex, with its release store): when `queued` reads clear (so PARKED is clear, or
     * stale over an empty queue), store 0 without a StoreLoad fence, then read `queued` again; if it is set now, a
     * waiter may have CASed PARKED in between the read and the store and lost it, so releasedWhileQueued, under the
     * monitor, sets PARKED again if the queue is not empty and wakes the head if the lock is still free and nobody
     * woken is in flight. Without the fence the second read can miss such waiters (BargingMutex's notes): every node
     * that queues in the instant the store takes to become visible. The release read `queued` clear, so the queue was
     * empty then, and the first of these nodes entered an empty queue: such a node parks for at most
     * FIRST_RECHECK_NANOS at a time, doubling up to a second, and its re-check wakes the head if the lock is free; if
     * it leaves instead (timeout, interrupt), cancel() does the same for the nodes behind it. The others park for at
     * most a second at a time, a safety net for a first node that leaves within that same instant. The next release
     * of any thread wakes them sooner: it acquired by a CAS after the store and reads `queued` set. `queued` is
     * set under the monitor before PARKED and cleared wherever the queue becomes empty. Slow path: if a woken thread
     * is in flight, the release clears LOCKED by one atomic add (it holds the bit, so only that bit changes) without
     * the monitor or the clock and is done unless `woken` was cleared meanwhile
     * (then it wakes the head if the lock is still free): under contention this is the common case, and it costs
     * about what AQS's release costs. Otherwise, under the monitor: if the
     * fairness timer has expired, remove the head, store LOCKED | (PARKED if threads remain), mark the head GRANTED
     * and re-arm the timer: ownership passes without LOCKED ever being clear, so no barger slips in. Otherwise store
     * PARKED-if-threads-remain (this frees the lock), then, unless a woken thread is still in flight, remove the head,
     * mark it WOKEN, record it in `woken`, and unpark it. The unpark runs after leaving the monitor.
     *
     * Invariants. (I1) Under the monitor, PARKED is set iff the queue is not empty, except between a fast release
     * that overwrote it and that releaser's releasedWhileQueued: it is set by the queueing thread (after `queued`)
     * and rewritten from the queue's size by unlockers, cancelling threads and releasedWhileQueued, all under the
     * monitor; bargers never change PARKED (they CAS LOCKED only), and the fast release stores 0 only after reading
     * `queued` clear, which is set before PARKED and cleared only with the queue empty. `queued` is set whenever the
     * queue is not empty (under the monitor).
     * (I2) While a thread holds LOCKED, only it stores the word (other writers CAS only when LOCKED is clear, or set
     * PARKED by CAS under the monitor, which the slow unlocker holds while it stores), so the slow unlocker may use
     * plain volatile stores; the fast release's store may overwrite such a CAS, which `queued` reveals (I1).
     * (I3) No lost wake-up: a thread parks only after it saw LOCKED under the monitor and set `queued` and PARKED, so
     * the holder's release takes the slow path, or stores the word, sees `queued` and restores PARKED and wakes, or
     * (the release store's window) misses it, and then the next release or the node's re-check wakes it.
     * An unlock that frees the lock without waking anybody read `woken` = W
     * after its store; W clears `woken` after that (SC order of volatiles), so W's next look at the word sees the
     * free lock or a later holder, whose own release takes the slow path (PARKED is still set, by I1) and wakes.
     * The monitor-free release reads `woken` after its CAS for the same reason. A woken thread that gives up
     * (timeout, interrupt) before competing passes the wake-up on (cancel()).
     * (I4) Mutual exclusion: LOCKED is set by CAS from a word without LOCKED, or kept set across a hand-off.
     *
     * Fairness. The timer is per lock, not per waiter: whatever the waiters' ages, at most one hand-off happens per
     * expiry, so the lock never turns into a FIFO convoy (a context switch per acquisition); yet the head of the
     * queue is granted the lock within one interval of reaching the head, and a woken thread that loses the race
     * goes back to the head, so every queued thread eventually reaches the head.
     *
     * Costs. Uncontended: one CAS to lock; to unlock a release store and two volatile reads (ReentrantLock's
     * release: a volatile store, with its fence, and a read of its queue head), no clock read, no allocation. A
     * parked thread that waits longer than 1 ms wakes about log2(wait / 1 ms) more times (one that entered an empty
     * queue) or once a second (the others); each such wake-up counts as a park in parks(). Contended: a barging
     * acquisition one read and one CAS; a node per acquisition that parks; an unlock with a woken thread in flight:
     * one atomic add and three volatile reads; otherwise the monitor, one clock read (the timer) and at most one
     * unpark.
     */

    static final String STRATEGY = "adaptive";

    static final int PARKED = 2;

    /** The first park of a node that enters an empty queue lasts at most this long before it re-checks (see notes). */
    static final long FIRST_RECHECK_NANOS = 1_000_000L;

    private static final VarHandle WOKEN_NODE;
    private static final VarHandle PARKS;
    private static final VarHandle SPINS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WOKEN_NODE = lookup.findVarHandle(AdaptiveMutex.class, "woken", AdaptiveWaiter.class);
            PARKS = lookup.findVarHandle(AdaptiveMutex.class, "parks", long.class);
            SPINS = lookup.findVarHandle(AdaptiveMutex.class, "spins", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Parked threads, oldest first; guarded by its own monitor. */
    private final ArrayDeque<AdaptiveWaiter> queue = new ArrayDeque<>();
    /** The node an unlock woke that has not run yet, or null; set under the monitor, cleared by CAS by that node. */
    @SuppressWarnings("unused") // accessed through WOKEN_NODE
    private volatile AdaptiveWaiter woken;
    /** The fairness timer (when an unlock hands over instead of waking); guarded by the monitor. */
    private final FairnessTimer fairness;
    /** Direct hand-offs; guarded by the monitor. */
    private long handoffs;
    /** Parks performed; atomic add by waiters. */
    private volatile long parks;
    /** Spin iterations performed; atomic add by spinners, once per spin phase. */
    private volatile long spins;
    /** Smoothed spins a successful spin needed; plain, updated racily by spinners (a lost update only delays). */
    private int spinEstimate;

    /** The engine's current tuning; read on the slow paths only. */
    private final Supplier<AdaptiveTuning> tuning;
    /** The first re-check interval of a node entering an empty queue, and of any other node (0: none); fixed. */
    private final long firstRecheckNanos;

    private final long laterRecheckNanos;

    AdaptiveMutex(Supplier<AdaptiveTuning> tuning) {
        this(tuning, FIRST_RECHECK_NANOS, AdaptiveWaiter.MAX_RECHECK_NANOS);
    }

    /**
     * A mutex whose waiters re-check after other intervals (0: never); for tests that need a re-check, or its absence,
     * on cue.
     */
    AdaptiveMutex(Supplier<AdaptiveTuning> tuning, long firstRecheckNanos, long laterRecheckNanos) {
        super(true); // the release store: its missed waiters re-check (see notes)
        this.tuning = tuning;
        this.fairness = new FairnessTimer(tuning);
        this.firstRecheckNanos = firstRecheckNanos;
        this.laterRecheckNanos = laterRecheckNanos;
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    protected void lockContended() {
        try {
            acquireSlow(Mode.UNINTERRUPTIBLE, 0L);
        } catch (InterruptedException impossible) {
            throw new AssertionError(impossible);
        }
    }

    @Override
    protected void lockInterruptiblyContended() throws InterruptedException {
        acquireSlow(Mode.INTERRUPTIBLE, 0L);
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLock()) {
            return true;
        }
        return nanos > 0L && acquireSlow(Mode.TIMED, nanos);
    }

    @Override
    public long spins() {
        return spins;
    }

    @Override
    public long parks() {
        return parks;
    }

    @Override
    public long handoffs() {
        synchronized (queue) {
            return handoffs;
        }
    }

    @Override
    public void countPark() {
        PARKS.getAndAdd(this, 1L);
    }

    /** Moves the fairness timer {@code nanos} from now; for tests that need barging or a hand-off on cue. */
    void rearmFairness(long nanos) {
        synchronized (queue) {
            fairness.rearm(nanos);
        }
    }

    /**
     * Frees the lock as a release store that missed a queueing thread leaves it: the word 0 (PARKED lost), `queued`
     * still set, nobody woken. For tests of the re-check; the caller must hold the lock.
     */
    void releaseMissingTheQueue() {
        setState(0);
    }

    /** The number of queued (parked or about to park) threads; for tests. */
    int queued() {
        synchronized (queue) {
            return queue.size();
        }
    }

    // ---------------------------------------------------------------------------------------- acquire

    private boolean acquireSlow(Mode mode, long nanos) throws InterruptedException {
        long deadline = mode == Mode.TIMED ? System.nanoTime() + nanos : 0L;
        AdaptiveWaiter node = null;
        for (; ; ) {
            if (spinThenTry(node != null)) {
                return true;
            }
            if (mode == Mode.TIMED && deadline - System.nanoTime() <= 0L) {
                return false; // not queued and not in flight: nothing to pass on
            }
            boolean again = node != null;
            if (again) {
                node.status = WAITING;
            } else {
                node = new AdaptiveWaiter(mode, deadline);
            }
            if (!queueUnlessFree(node, again)) {
                return true;
            }
            int outcome = node.await(this);
            if (outcome != WOKEN) {
                return outcome == GRANTED;
            }
            WOKEN_NODE.compareAndSet(this, node, (AdaptiveWaiter) null); // we run: no longer in flight
        }
    }

    /**
     * Barges while the lock is free; spins while it is held and nobody is parked, or, for a thread an unlock woke
     * ({@code woken}), even while others are parked (like the first queued node of AQS). True if the caller holds it.
     */
    private boolean spinThenTry(boolean woken) {
        int estimate = spinEstimate;
        int limit = Math.min(tuning.get().maxSpins(), 2 * estimate + 10);
        for (int i = 0; ; i++) {
            int s = state();
            if ((s & LOCKED) == 0) {
                if (compareAndSetState(s, s | LOCKED)) {
                    if (i > 0) {
                        spinEstimate = estimate + (i - estimate) / 8;
                        SPINS.getAndAdd(this, (long) i);
                    }
                    return true;
                }
                continue;
            }
            if ((s & PARKED) != 0 && !woken) {
                if (i > 0) {
                    SPINS.getAndAdd(this, (long) i);
                }
                return false; // threads are parked: the holder is slow or preempted, do not steal its core
            }
            if (i >= limit) {
                spinEstimate = estimate + (limit - estimate) / 8;
                if (i > 0) {
                    SPINS.getAndAdd(this, (long) i);
                }
                return false;
            }
            Thread.onSpinWait();
        }
    }

    /** Under the monitor: takes the lock if free (returns false), else sets PARKED and queues {@code node}. */
    private boolean queueUnlessFree(AdaptiveWaiter node, boolean atHead) {
        synchronized (queue) {
            setQueued(true); // before PARKED, which a release by a store may overwrite (BargingMutex notes)
            for (; ; ) {
                int s = state();
                if ((s & LOCKED) == 0) {
                    if (compareAndSetState(s, s | LOCKED)) {
                        if (queue.isEmpty()) {
                            setQueued(false);
                        }
                        return false;
                    }
                } else if ((s & PARKED) != 0 || compareAndSetState(s, s | PARKED)) {
                    break;
                }
            }
            // the first node a release store can miss entered an empty queue; the others' interval is a safety net
            node.recheckNanos = queue.isEmpty() ? firstRecheckNanos : laterRecheckNanos;
            if (atHead) {
                queue.addFirst(node); // woken before and lost the race: keep its place
            } else {
                queue.addLast(node);
            }
            return true;
        }
    }

    /**
     * Gives up waiting (timeout, interrupt). Returns false if the lock was handed to {@code node} meanwhile (the
     * caller owns it), true if the caller left.
     */
    @Override
    public boolean cancel(AdaptiveWaiter node) {
        Thread wake = null;
        synchronized (queue) {
            int st = node.status;
            if (st == GRANTED) {
                return false;
            }
            if (st == WAITING) {
                queue.remove(node);
                if (queue.isEmpty()) {
                    clearParked();
                } else {
                    // a release store may have missed this node and the ones behind it (notes): pass it on
                    setParked();
                    wake = wakeHeadIfFree();
                }
            } else {
                // woken, and leaving without competing: pass the wake-up on if the lock is free
                WOKEN_NODE.compareAndSet(this, node, (AdaptiveWaiter) null);
                wake = wakeHeadIfFree();
            }
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
        return true;
    }

    /** Under the monitor, with the lock's word not held by the caller: clears PARKED (the queue is empty). */
    private void clearParked() {
        setQueued(false);
        for (; ; ) {
            int s = state();
            if ((s & PARKED) == 0 || compareAndSetState(s, s & ~PARKED)) {
                return;
            }
        }
    }

    /** Under the monitor: sets PARKED (the queue is not empty), whether or not the lock is held. */
    private void setParked() {
        for (; ; ) {
            int s = state();
            if ((s & PARKED) != 0 || compareAndSetState(s, s | PARKED)) {
                return;
            }
        }
    }

    /**
     * Under the monitor: wakes the head (see wakeHead) if the lock is free and no woken thread is on its way, which
     * would compete for it anyway (I3); returns the thread to unpark after leaving the monitor, or null.
     */
    private Thread wakeHeadIfFree() {
        return (state() & LOCKED) == 0 && WOKEN_NODE.getVolatile(this) == null ? wakeHead() : null;
    }

    /** Under the monitor: removes the head (if any), marks it WOKEN and in flight; returns its thread or null. */
    private Thread wakeHead() {
        AdaptiveWaiter head = queue.pollFirst();
        if (head == null) {
            return null;
        }
        if (queue.isEmpty()) {
            clearParked();
        }
        WOKEN_NODE.setVolatile(this, head);
        head.status = WOKEN;
        return head.thread;
    }

    // ---------------------------------------------------------------------------------------- release

    /**
     * After a release by a store that found {@code queued} set: under the monitor, puts PARKED back if threads are
     * queued (a waiter's CAS between the releaser's read and its store may have lost it), and wakes the head if the
     * lock is still free and no woken thread is on its way.
     */
    @Override
    protected void releasedWhileQueued() {
        Thread wake = null;
        synchronized (queue) {
            if (queue.isEmpty()) {
                return;
            }
            setParked();
            wake = wakeHeadIfFree();
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }

    /** A re-check by a node still queued: if the lock is free, a release store may have missed it (see notes). */
    @Override
    public void recheck() {
        if ((state() & LOCKED) != 0) {
            return; // its holder's release reads `queued` set; if this is a release still missing us, the next re-check
        }
        Thread wake;
        synchronized (queue) {
            if (queue.isEmpty()) {
                return;
            }
            setParked();
            wake = wakeHeadIfFree();
        }
        if (wake != null && wake != Thread.currentThread()) { // the caller, woken, sees its status: no permit needed
            LockSupport.unpark(wake);
        }
    }

    @Override
    protected void unlockContended() {
        if (WOKEN_NODE.getVolatile(this) != null) {
            // a woken thread is on its way: release without the monitor or the clock, as AQS's signalNext does
            clearLocked();
            if (WOKEN_NODE.getVolatile(this) != null) {
                return; // it clears `woken` after our release, so it sees the free lock or a later holder (I3)
            }
            wakeIfFree();
            return;
        }
        Thread wake;
        synchronized (queue) {
            AdaptiveWaiter head = queue.peekFirst();
            if (head == null) {
                setQueued(false);
                setState(0); // `queued` stale over an empty queue: nobody to wake, so free the lock
                return;
            }
            if (fairness.dueAt(System.nanoTime())) { // re-arms itself
                queue.pollFirst();
                if (queue.isEmpty()) {
                    setQueued(false);
                    setState(LOCKED); // never free: no barger overtakes
                } else {
                    setState(LOCKED | PARKED);
                }
                handoffs++;
                WOKEN_NODE.compareAndSet(this, head, (AdaptiveWaiter) null);
                head.status = GRANTED;
                wake = head.thread;
            } else {
                setState(PARKED); // frees the lock; the queue is not empty
                if (WOKEN_NODE.getVolatile(this) != null) {
                    return; // a woken thread is still on its way and will compete (I3)
                }
                queue.pollFirst();
                if (queue.isEmpty()) {
                    clearParked();
                }
                WOKEN_NODE.setVolatile(this, head);
                head.status = WOKEN;
                wake = head.thread;
            }
        }
        LockSupport.unpark(wake);
    }

    /**
     * Frees the lock, keeping PARKED (which a cancelling thread may clear meanwhile under the monitor): one atomic
     * add, since LOCKED is set (the caller holds the lock) and only its own bit changes.
     */
    private void clearLocked() {
        getAndAddState(-LOCKED);
    }

    /** After a release that found no woken thread in flight: wakes the head if the lock is still free. */
    private void wakeIfFree() {
        Thread wake = null;
        synchronized (queue) {
            wake = wakeHeadIfFree();
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }
}
