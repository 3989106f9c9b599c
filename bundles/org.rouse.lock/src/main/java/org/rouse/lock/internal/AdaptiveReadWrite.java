package org.rouse.lock.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * Read-write strategy {@code adaptive}, the default: a read-write lock that starves neither writers nor readers.
 * Readers share one lock word; a thread that finds the lock taken spins briefly (only while nobody is parked), then
 * parks in the lock's queue. Once a writer waits, new readers queue behind it (writer preference); when a writer
 * releases, every reader queued at that moment is let in at once, as one bounded batch, before the next writer.
 *
 * <pre>{@code
 * ReadWritePrimitive rw = new StrategyLockEngine().newReadWritePrimitive("adaptive");
 * rw.lockShared();
 * try {
 *     // ... read
 * } finally {
 *     rw.unlockShared();
 * }
 * }</pre>
 */
final class AdaptiveReadWrite implements ReadWritePrimitive {

    /*
     * Implementation notes.
     *
     * Sources. Rust parking_lot's RawRwLock (one word with the reader count and WRITER / PARKED bits, the parked
     * threads in a queue outside the word, barging and a short spin only while nobody is parked); the Linux rwsem
     * (kernel/locking/rwsem.c: once a writer waits, new readers queue instead of joining the readers inside
     * (RWSEM_FLAG_HANDOFF / waiter bit), and a writer's release wakes all queued readers together); Brandenburg and
     * Anderson, "Spin-based reader-writer synchronization for multiprocessor real-time systems" (phase-fair
     * locks: reader phases and writer phases alternate, so each waits at most one phase of the other kind); the
     * JDK's ReentrantReadWriteLock for the contract. The spin length is AdaptiveMutex's (glibc's adaptive mutex).
     *
     * Layout. `state`: bit WRITER (held exclusively), bit PARKED (the queue is not empty), bit WRITER_WAITING (the
     * queue holds a writer), and the count of shared holders in the bits from READER_SHIFT up. `queue`: parked
     * threads' nodes, oldest first, under its own monitor (Java has no futex; the monitor is held for a few
     * instructions, never while parking), with `queuedWriters` counting the writers in it.
     *
     * Acquire. Shared: allowed while neither WRITER nor WRITER_WAITING is set, by CAS count + 1 (barging past parked
     * readers is harmless: they are parked only behind a writer that has since left, and are being let in).
     * Exclusive: only from the word 0, by CAS to WRITER (a writer never overtakes a parked thread). Slow path: spin
     * with Thread.onSpinWait() while the lock is taken and PARKED is clear, up to the adaptive limit; then, under the
     * monitor, retry once and otherwise set PARKED (and WRITER_WAITING for a writer) in the same CAS that confirms
     * the lock is still taken, queue the node, and park until an unlocker marks it granted: queued threads receive
     * ownership directly and never compete again.
     *
     * Release and grants. Exclusive release: CAS(WRITER, 0), which fails when PARKED is set; then, under the monitor,
     * clear WRITER and grant. Shared release: CAS count - 1, except that the last reader with PARKED set takes the
     * monitor, decrements and grants. Downgrade: one CAS from WRITER to one reader, then grant if PARKED. grant(),
     * under the monitor, with WRITER clear: if the head of the queue is a reader, every queued reader is granted at
     * once (the batch: only those queued now, so it is bounded) and the queued writers stay; if the head is a writer
     * and no reader holds the lock, the writer is granted (WRITER set in the same CAS that rewrites the flags).
     * Granted nodes are unparked after leaving the monitor. A queued thread that gives up (timeout, interrupt)
     * leaves the queue under the monitor and calls grant(), since a writer leaving may let queued readers in.
     *
     * Invariants.
     * (I1) Under the monitor, PARKED is set iff the queue is not empty and WRITER_WAITING iff queuedWriters > 0:
     * every change of the queue rewrites them under the monitor; the fast paths never change them (they CAS the
     * count or WRITER only, against a word that includes the flags).
     * (I2) No lost wake-up. A thread queues only after a CAS that set PARKED (or found it set) on a word in which it
     * could not acquire. Any release that could let it in then takes the slow path: the exclusive release's CAS
     * from WRITER fails on PARKED; the last reader's release sees PARKED; so a release that makes progress possible
     * runs grant() under the monitor, after the queueing thread's monitor section. grant() hands the lock on
     * whenever the head can proceed; when it cannot (a writer at the head while readers hold), those readers'
     * last release grants it. So, under the monitor, the lock is never free while the queue is not empty.
     * (I3) Exclusion. WRITER is set only by CAS from 0 or, in grant(), by CAS from a word with no reader and no
     * WRITER; the count grows only by CAS from a word without WRITER. So a writer excludes everyone.
     * (I4) No starvation. Once a writer is queued (WRITER_WAITING), no reader enters except by a grant; readers
     * holding the lock drain, the last one grants the head. A writer's release grants all queued readers ahead of
     * the next queued writer if the head is a reader, else the head writer; so every queued thread waits at most
     * for the threads queued before it plus one batch of readers per writer ahead of it.
     *
     * Costs. Uncontended: one CAS to acquire, one to release, either mode; no clock read, no allocation. Concurrent
     * readers contend on one word (one CAS each way, as ReentrantReadWriteLock). A parked acquisition allocates a
     * node and costs the monitor twice (queue, grant) and one unpark; a reader batch is granted in one monitor
     * section and one CAS. Once threads are parked the lock passes by direct hand-off (a context switch per
     * parked acquisition): the price of not starving writers; the spin keeps short critical sections from parking.
     */

    static final String STRATEGY = "adaptive";

    static final int WRITER = 1;
    static final int PARKED = 2;
    static final int WRITER_WAITING = 4;
    static final int FLAGS = PARKED | WRITER_WAITING;
    static final int READER_SHIFT = 3;
    static final int READER = 1 << READER_SHIFT;
    static final int MAX_READERS = Integer.MAX_VALUE >>> READER_SHIFT;

    private static final VarHandle STATE;
    private static final VarHandle PARKS;
    private static final VarHandle SPINS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(AdaptiveReadWrite.class, "state", int.class);
            PARKS = lookup.findVarHandle(AdaptiveReadWrite.class, "parks", long.class);
            SPINS = lookup.findVarHandle(AdaptiveReadWrite.class, "spins", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** WRITER, PARKED, WRITER_WAITING and the reader count; CAS by every thread (see notes for who sets what). */
    private volatile int state;
    /** Parked threads, oldest first; guarded by its own monitor. */
    private final ArrayDeque<Node> queue = new ArrayDeque<>();
    /** Writers in {@code queue}; guarded by the queue's monitor. */
    private int queuedWriters;
    /** Grants (direct hand-offs) to queued threads; guarded by the queue's monitor. */
    private long handoffs;
    /** Parks performed; atomic add by waiters. */
    private volatile long parks;
    /** Spin iterations performed; atomic add by spinners, once per spin phase. */
    private volatile long spins;
    /** Smoothed spins a successful spin needed; plain, updated racily by spinners (a lost update only delays). */
    private int spinEstimate;

    /** The engine's current tuning; read on the slow paths only. */
    private final Supplier<AdaptiveTuning> tuning;

    /** A queued thread; {@code granted} is set once, under the monitor, when it receives the lock. */
    static final class Node {
        final Thread thread;
        final boolean writer;
        /** Written under the monitor by a granting thread, read by the waiting thread. */
        volatile boolean granted;

        Node(Thread thread, boolean writer) {
            this.thread = thread;
            this.writer = writer;
        }
    }

    private enum Mode {
        UNINTERRUPTIBLE,
        INTERRUPTIBLE,
        TIMED
    }

    AdaptiveReadWrite(Supplier<AdaptiveTuning> tuning) {
        this.tuning = tuning;
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    // ------------------------------------------------------------------------------------- exclusive

    @Override
    public void lock() {
        if (!STATE.compareAndSet(this, 0, WRITER)) {
            acquireUninterruptibly(true);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!STATE.compareAndSet(this, 0, WRITER)) {
            acquireSlow(true, Mode.INTERRUPTIBLE, 0L);
        }
    }

    @Override
    public boolean tryLock() {
        return STATE.compareAndSet(this, 0, WRITER);
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLock()) {
            return true;
        }
        return nanos > 0L && acquireSlow(true, Mode.TIMED, nanos);
    }

    @Override
    public void unlock() {
        if (!STATE.compareAndSet(this, WRITER, 0)) {
            List<Thread> wake;
            synchronized (queue) {
                for (; ; ) { // while WRITER is set only monitor holders change the word; the CAS is for clarity
                    int s = state;
                    if (STATE.compareAndSet(this, s, s & ~WRITER)) {
                        break;
                    }
                }
                wake = grant();
            }
            unparkAll(wake);
        }
    }

    // ---------------------------------------------------------------------------------------- shared

    @Override
    public void lockShared() {
        if (!tryLockShared()) {
            acquireUninterruptibly(false);
        }
    }

    @Override
    public void lockSharedInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!tryLockShared()) {
            acquireSlow(false, Mode.INTERRUPTIBLE, 0L);
        }
    }

    @Override
    public boolean tryLockShared() {
        for (; ; ) {
            int s = state;
            if (!readerMayEnter(s)) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s + READER)) {
                return true;
            }
        }
    }

    @Override
    public boolean tryLockSharedNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLockShared()) {
            return true;
        }
        return nanos > 0L && acquireSlow(false, Mode.TIMED, nanos);
    }

    @Override
    public void unlockShared() {
        for (; ; ) {
            int s = state;
            if ((s >>> READER_SHIFT) == 1 && (s & PARKED) != 0) {
                unlockSharedSlow();
                return;
            }
            if (STATE.compareAndSet(this, s, s - READER)) {
                return;
            }
        }
    }

    @Override
    public void downgrade() {
        for (; ; ) {
            int s = state;
            if (STATE.compareAndSet(this, s, (s & ~WRITER) + READER)) {
                if ((s & PARKED) != 0) {
                    List<Thread> wake;
                    synchronized (queue) {
                        wake = grant();
                    }
                    unparkAll(wake);
                }
                return;
            }
        }
    }

    @Override
    public boolean isWriteLocked() {
        return (state & WRITER) != 0;
    }

    @Override
    public boolean isLocked() {
        return (state & ~FLAGS) != 0;
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

    /** Queued threads; for tests. */
    int queued() {
        synchronized (queue) {
            return queue.size();
        }
    }

    /** The shared holders now; for tests. */
    int readers() {
        return state >>> READER_SHIFT;
    }

    // ---------------------------------------------------------------------------------------- internals

    private static boolean readerMayEnter(int s) {
        if ((s & (WRITER | WRITER_WAITING)) != 0) {
            return false;
        }
        if ((s >>> READER_SHIFT) == MAX_READERS) {
            throw new Error("Maximum lock count exceeded");
        }
        return true;
    }

    private void acquireUninterruptibly(boolean writer) {
        try {
            acquireSlow(writer, Mode.UNINTERRUPTIBLE, 0L);
        } catch (InterruptedException impossible) {
            throw new AssertionError(impossible);
        }
    }

    private boolean acquireSlow(boolean writer, Mode mode, long nanos) throws InterruptedException {
        long deadline = mode == Mode.TIMED ? System.nanoTime() + nanos : 0L;
        if (spinThenTry(writer)) {
            return true;
        }
        if (mode == Mode.TIMED && deadline - System.nanoTime() <= 0L) {
            return false;
        }
        Thread me = Thread.currentThread();
        Node node = new Node(me, writer);
        if (!queueUnlessFree(node)) {
            return true;
        }
        boolean interrupted = false;
        try {
            while (!node.granted) {
                PARKS.getAndAdd(this, 1L);
                if (mode == Mode.TIMED) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0L) {
                        return !cancel(node);
                    }
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
                if (Thread.interrupted()) {
                    if (mode == Mode.UNINTERRUPTIBLE) {
                        interrupted = true;
                    } else if (cancel(node)) {
                        throw new InterruptedException();
                    } else {
                        interrupted = true; // granted meanwhile: we hold the lock, report the interrupt
                        return true;
                    }
                }
            }
            return true;
        } finally {
            if (interrupted) {
                me.interrupt();
            }
        }
    }

    /** Spins while the lock is taken and nobody is parked, trying to acquire; true if the caller now holds it. */
    private boolean spinThenTry(boolean writer) {
        int estimate = spinEstimate;
        int limit = Math.min(tuning.get().maxSpins(), 2 * estimate + 10);
        for (int i = 0; ; i++) {
            int s = state;
            boolean mayEnter = writer ? s == 0 : readerMayEnter(s);
            if (mayEnter) {
                if (STATE.compareAndSet(this, s, writer ? WRITER : s + READER)) {
                    if (i > 0) {
                        spinEstimate = estimate + (i - estimate) / 8;
                        SPINS.getAndAdd(this, (long) i);
                    }
                    return true;
                }
                continue;
            }
            if ((s & PARKED) != 0 || i >= limit) {
                if (i >= limit) {
                    spinEstimate = estimate + (limit - estimate) / 8;
                }
                if (i > 0) {
                    SPINS.getAndAdd(this, (long) i);
                }
                return false; // threads are parked (the holder is slow or preempted), or the spin is over
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Under the monitor: acquires if possible now (returns false); else sets PARKED (and WRITER_WAITING for a
     * writer) in a CAS that confirms the lock is still taken, and queues {@code node} (returns true).
     */
    private boolean queueUnlessFree(Node node) {
        synchronized (queue) {
            for (; ; ) {
                int s = state;
                if (node.writer ? s == 0 : readerMayEnter(s)) {
                    if (STATE.compareAndSet(this, s, node.writer ? WRITER : s + READER)) {
                        return false;
                    }
                    continue;
                }
                int flagged = s | PARKED | (node.writer ? WRITER_WAITING : 0);
                if (flagged == s || STATE.compareAndSet(this, s, flagged)) {
                    break;
                }
            }
            queue.addLast(node);
            if (node.writer) {
                queuedWriters++;
            }
            return true;
        }
    }

    /** Gives up waiting; false if {@code node} was granted meanwhile (the caller holds the lock), true if it left. */
    private boolean cancel(Node node) {
        List<Thread> wake;
        synchronized (queue) {
            if (node.granted) {
                return false;
            }
            queue.remove(node);
            if (node.writer) {
                queuedWriters--;
            }
            wake = grant(); // a writer leaving may let queued readers in; also rewrites the flags
        }
        unparkAll(wake);
        return true;
    }

    private void unlockSharedSlow() {
        List<Thread> wake;
        synchronized (queue) {
            for (; ; ) {
                int s = state;
                if (STATE.compareAndSet(this, s, s - READER)) {
                    break;
                }
            }
            wake = grant();
        }
        unparkAll(wake);
    }

    /** The flag bits the queue calls for now (I1); under the monitor. */
    private int flags(int queued, int writers) {
        return (queued > 0 ? PARKED : 0) | (writers > 0 ? WRITER_WAITING : 0);
    }

    /**
     * Under the monitor: hands the lock to the head of the queue if it can proceed (all queued readers as one
     * batch, or the head writer once no reader holds the lock), and rewrites the flags (I1). Returns the threads to
     * unpark after leaving the monitor.
     */
    private List<Thread> grant() {
        for (; ; ) {
            int s = state;
            Node head = queue.peekFirst();
            if ((s & WRITER) != 0 || head == null || (head.writer && (s >>> READER_SHIFT) != 0)) {
                int f = flags(queue.size(), queuedWriters);
                if ((s & FLAGS) == f || STATE.compareAndSet(this, s, (s & ~FLAGS) | f)) {
                    return List.of();
                }
                continue;
            }
            if (head.writer) {
                int f = flags(queue.size() - 1, queuedWriters - 1);
                if (!STATE.compareAndSet(this, s, WRITER | f)) {
                    continue; // s had no holder; only flags can have changed... or a barging reader entered
                }
                queue.pollFirst();
                queuedWriters--;
                handoffs++;
                head.granted = true;
                return List.of(head.thread);
            }
            int batch = queue.size() - queuedWriters;
            int f = flags(queuedWriters, queuedWriters);
            if (!STATE.compareAndSet(this, s, ((s & ~FLAGS) + batch * READER) | f)) {
                continue;
            }
            List<Thread> wake = new ArrayList<>(batch);
            for (Iterator<Node> it = queue.iterator(); it.hasNext(); ) {
                Node n = it.next();
                if (!n.writer) {
                    it.remove();
                    n.granted = true;
                    wake.add(n.thread);
                }
            }
            handoffs += batch;
            return wake;
        }
    }

    private static void unparkAll(List<Thread> threads) {
        for (int i = 0, n = threads.size(); i < n; i++) {
            LockSupport.unpark(threads.get(i));
        }
    }
}
