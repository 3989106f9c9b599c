package org.rouse.lock.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.rouse.lock.internal.AdaptiveWaiter.Mode;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * Read-write strategy {@code adaptive}: a barging read-write lock with eventual fairness that starves neither
 * writers nor readers. Writers take turns on an {@code adaptive} mutex ({@link AdaptiveMutex}: barging, adaptive
 * spin, a per-lock fairness timer), then close the lock to new readers and wait for the readers inside to leave.
 * Readers share one lock word; a reader that finds a writer in spins briefly, then parks. A writer's release wakes
 * the parked readers, which compete for the lock when they run, as in {@link
 * java.util.concurrent.locks.ReentrantReadWriteLock}; about once per fairness interval it lets them in directly
 * instead, so no reader starves either.
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
final class AdaptiveReadWrite implements ReadWritePrimitive, AdaptiveWaiter.Queue {

    /*
     * Implementation notes.
     *
     * Sources. Rust parking_lot's RawRwLock: a writer first takes the WRITER bit, which keeps new readers out, and
     * then waits for the readers inside to leave, parked apart from the other waiters (its WRITER_PARKED_BIT); an
     * unlock wakes the parked threads, which compete again (barging), and hands the lock over directly only when
     * the queue's "be fair" timer has expired. F. Pizlo, "Locking in WebKit" (2016), for "wake, don't grant": a
     * thread that is granted a lock before it runs holds it while unscheduled. The JDK's ReentrantReadWriteLock for
     * the contract and for woken readers that acquire only when they run. The writers' mutex, its spin and its
     * fairness timer are AdaptiveMutex's; the readers' timer is the same FairnessTimer.
     *
     * Layout. `writers`: an AdaptiveMutex that a writer holds from before it closes the lock until after it opens
     * it again (writers exclude each other there, with barging and eventual fairness). `state`: bit WRITER (a
     * writer holds the lock or is waiting for the readers inside to leave: no reader may enter), bit
     * READERS_PARKED (the readers' queue is not empty), bit DRAIN_PARKED (the writer is parked until the reader
     * count drops to 0; its thread is in `drainer`), and the count of shared holders from READER_SHIFT up.
     * `queue`: parked readers' nodes (AdaptiveWaiter), under its own monitor, which is held for a few
     * instructions and never while parking.
     *
     * Shared acquire. Fast path, optimistic: one atomic add of +1 to the count; if the word it returns has WRITER
     * set, the reader never entered and takes itself out again with the shared release below (so it may be the one
     * that takes the count to 0 and unparks the draining writer). One atomic add, unlike a load and then a CAS,
     * moves the contended cache line once and never retries. Slow path, in a loop: spin while WRITER is set, up to
     * READER_SPINS, and only while the writer is not parked draining and no reader is parked or the caller was just
     * woken (either means the writer, or a reader inside, is slow or preempted); then, under the monitor, take the
     * lock if WRITER is clear, or else set READERS_PARKED in a CAS that confirms WRITER, queue the node and park
     * until its status leaves WAITING (AdaptiveWaiter.await, the park loop shared with AdaptiveMutex): GRANTED means
     * a fair release counted it in (it holds the lock), WOKEN means go round the loop again.
     * Shared release: one atomic add of -1 to the count; the reader that takes it to 0 while DRAIN_PARKED is set
     * unparks `drainer`.
     *
     * Exclusive acquire. Take `writers` (AdaptiveMutex's fast path, spin, queue and fairness), then CAS(0, WRITER)
     * when no reader holds it (the common case: the whole acquisition is two CASes). Else spin up to OPEN_SPINS with
     * the lock open, retrying CAS(0, WRITER) whenever the word reads 0 (a writer whose time runs out or that is
     * interrupted meanwhile gives up there, without closing the lock); then set WRITER and wait for the count to
     * drop to 0: spin up to DRAIN_SPINS, then publish the thread in `drainer`, set DRAIN_PARKED by a CAS that
     * confirms count > 0, and park until the count is 0; then clear DRAIN_PARKED. A writer that gives up (timeout,
     * interrupt) while waiting releases as below. tryLock: fails at once unless the word is 0 (so a swapper's
     * retries never take `writers` from under the readers), then writers.tryLock() and CAS(0, WRITER), else undo and
     * fail, so it fails while readers hold the lock.
     *
     * Exclusive release. CAS(WRITER, 0) when no reader is parked, else under the monitor: clear WRITER,
     * DRAIN_PARKED and READERS_PARKED in one CAS, empty the queue and unpark every reader in it after the monitor.
     * Each is WOKEN, except when the readers' fairness timer has expired: then the same CAS adds them all to the
     * count and each is GRANTED (a direct hand-off, at most once per expiry). Then release `writers`, which wakes
     * (or, when its own timer has expired, hands over to) one parked writer. Downgrade is the same release with
     * one more reader, the caller, in the same CAS.
     *
     * Spins. The word's waits have their own fixed bounds, not the writers' mutex's adaptive limit (adaptive.spin.max,
     * 5 by default; when it is 0, nobody spins here either), because what they wait for is one short critical section
     * on a thread that is running: a reader waits for one writer, a writer for the readers inside. A park there costs
     * far more than the wait, and more than one park: while a writer is parked draining, the lock is closed and every
     * reader that arrives parks too, and every parked thread's wake-up preempts a running one, which makes a preempted
     * holder, and so more parks, likelier. With the mutex's 5 spins, rw-read-mostly (16 threads, 2 cores) settled
     * within a few rounds into a state of 0.0004-0.0005 voluntary context switches per operation, 2.5-3.6 times
     * ReentrantReadWriteLock's, and 0.89-0.97x its throughput; with OPEN_SPINS 100, DRAIN_SPINS 200 and READER_SPINS 50
     * its context switches are ReentrantReadWriteLock's and its throughput 0.96-1.20x on JDK 17 (0.88-0.97x on JDK 25,
     * where ReentrantReadWriteLock itself is faster; docs/performance.md, 2026-12-07). The open spin is this lock's own
     * bounded window, not ReentrantReadWriteLock's rule (which keeps new readers out as soon as a writer is first in
     * its queue): the longer drain and reader spins alone brought the parks down but not the throughput up. Readers
     * stop spinning at once when the writer is parked draining: it waits for a reader that is not running. A spin-wait
     * hint took 19 ns on the EPYC host, so the bounds are about 2, 4 and 1 µs there (open, drain, reader), twice that
     * where a hint takes ~140 cycles (recent Intel cores): below a park and wake-up. They are iteration counts measured
     * on one host, read-mostly (5 % writes) and write-heavy (25 %, where they neither helped nor hurt: 0.99-1.01x
     * against main's 0.96-1.01x); a many-core host may want others. Instances take them as defaults; model checks pass
     * bounds of a few spins, which reach every spin's exits.
     *
     * Invariants.
     * (I1) Only the holder of `writers` sets WRITER, and it clears WRITER before it releases `writers`; so WRITER is
     * clear whenever a thread takes `writers`, and its claim CAS cannot race another writer's.
     * (I2) Under the monitor, READERS_PARKED is set iff the queue is not empty: a reader sets it while queueing,
     * under the monitor; a writer's release clears it and empties the queue in one monitor section; a cancelling
     * reader that leaves the queue empty clears it. READERS_PARKED and DRAIN_PARKED are set only together with
     * WRITER and are cleared with it, so a word without WRITER has neither flag.
     * (I3) Exclusion. A reader enters only by a CAS of count + 1 on a word without WRITER, by an atomic add whose
     * previous word had no WRITER, or by a release's CAS, which clears WRITER in the same step. WRITER is set while
     * the count may be positive, but the writer holds the lock only once it has seen the count at 0 with WRITER
     * set; after that the count can rise only by optimistic adds that see WRITER and are taken back, so no reader
     * enters until it clears WRITER. (Such a transient count can make a concurrent isWriteLocked() say false, and a
     * writer's CAS(0, WRITER) fail; a reader preempted between its add and its take-back can make tryLock fail
     * spuriously after the writer has gone, which tryLock's contract allows.)
     * (I4) No lost wake-up. A reader parks only after its CAS set or kept READERS_PARKED on a word with WRITER, so
     * the release that clears WRITER fails its CAS(WRITER, 0) and empties the queue under the monitor, after the
     * reader's section. The writer parks only after its CAS set DRAIN_PARKED on a word with count > 0, so the
     * atomic add that takes the count to 0 comes later on the same word, sees the flag and unparks `drainer`,
     * which was written before that CAS. A woken reader that gives up needs to pass nothing on: a release wakes
     * every parked reader.
     * (I5) No starvation. A writer: once it holds `writers` (AdaptiveMutex's eventual fairness), it lets readers in
     * for at most OPEN_SPINS more spins; then no reader enters and it waits only for the readers already in. A
     * reader: it parks only while a writer holds the lock, every writer's release wakes it, and the first release
     * after the readers' timer has expired counts it in.
     *
     * Costs. Uncontended: shared acquire and release one atomic add each; exclusive two CASes each (the mutex
     * and the word). No clock read, no allocation. A parked reader allocates one node per acquisition; a writer's
     * release with parked readers costs the monitor, one clock read and one unpark per reader; a writer that waits
     * for readers spins at most OPEN_SPINS + DRAIN_SPINS and parks at most once per wake-up from the last of them.
     */

    static final String STRATEGY = "adaptive";

    static final int WRITER = 1;
    static final int READERS_PARKED = 2;
    static final int DRAIN_PARKED = 4;
    static final int FLAGS = READERS_PARKED | DRAIN_PARKED;
    static final int READER_SHIFT = 3;
    static final int READER = 1 << READER_SHIFT;
    static final int MAX_READERS = Integer.MAX_VALUE >>> READER_SHIFT;

    /** The default bound of a writer's spin with the lock still open, waiting for the readers inside to leave. */
    static final int OPEN_SPINS = 100;
    /** The default bound of a writer's spin with the lock closed, waiting for the readers inside to leave. */
    static final int DRAIN_SPINS = 200;
    /** The default bound of a reader's spin waiting for a running writer to leave (notes, "Spins"). */
    static final int READER_SPINS = 50;

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

    /** WRITER, READERS_PARKED, DRAIN_PARKED and the reader count; CAS or atomic add by every thread (see notes). */
    private volatile int state;
    /** Held by a writer for its whole hold (and while it waits for readers); see I1. */
    private final AdaptiveMutex writers;
    /** Parked readers, oldest first; guarded by its own monitor. */
    private final ArrayDeque<AdaptiveWaiter> queue = new ArrayDeque<>();
    /** When a writer's release lets the parked readers in instead of waking them; guarded by the queue's monitor. */
    private final FairnessTimer fairness;
    /** The writer parked until the readers leave; written by that writer before it sets DRAIN_PARKED. */
    private volatile Thread drainer;
    /** Readers let in by a fair release; guarded by the queue's monitor. */
    private long grants;
    /** Parks performed by readers and draining writers; atomic add by them. */
    private volatile long parks;
    /** Spin iterations performed by readers and writers waiting on the word; atomic add, once per spin phase. */
    private volatile long spins;

    /** The engine's current tuning; read on the slow paths only (only whether it spins at all). */
    private final Supplier<AdaptiveTuning> tuning;
    /** OPEN_SPINS, or a model check's smaller bound; final, set by the constructor. */
    private final int openSpins;
    /** DRAIN_SPINS, or a model check's smaller bound; final, set by the constructor. */
    private final int drainSpins;
    /** READER_SPINS, or a model check's smaller bound; final, set by the constructor. */
    private final int readerSpins;

    AdaptiveReadWrite(Supplier<AdaptiveTuning> tuning) {
        this(tuning, OPEN_SPINS, DRAIN_SPINS, READER_SPINS);
    }

    /** With other spin bounds on the word, for model checks that cover every spin's exits in a few steps. */
    AdaptiveReadWrite(Supplier<AdaptiveTuning> tuning, int openSpins, int drainSpins, int readerSpins) {
        this.tuning = tuning;
        this.writers = new AdaptiveMutex(tuning);
        this.fairness = new FairnessTimer(tuning);
        this.openSpins = openSpins;
        this.drainSpins = drainSpins;
        this.readerSpins = readerSpins;
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    // ------------------------------------------------------------------------------------- exclusive

    @Override
    public void lock() {
        writers.lock();
        if (!STATE.compareAndSet(this, 0, WRITER)) {
            try {
                claim(Mode.UNINTERRUPTIBLE, 0L);
            } catch (InterruptedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        writers.lockInterruptibly();
        if (!STATE.compareAndSet(this, 0, WRITER)) {
            claim(Mode.INTERRUPTIBLE, 0L);
        }
    }

    @Override
    public boolean tryLock() {
        if (state != 0 || !writers.tryLock()) { // held in either mode: fail without touching `writers`
            return false;
        }
        if (STATE.compareAndSet(this, 0, WRITER)) { // by I1 and I2 the word is 0 unless readers hold the lock
            return true;
        }
        writers.unlock();
        return false;
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long deadline = System.nanoTime() + nanos;
        if (!writers.tryLockNanos(nanos)) {
            return false;
        }
        if (STATE.compareAndSet(this, 0, WRITER)) {
            return true;
        }
        if (deadline - System.nanoTime() <= 0L) {
            writers.unlock(); // readers hold it and the time is up: never close the lock for nothing
            return false;
        }
        return claim(Mode.TIMED, deadline);
    }

    @Override
    public void unlock() {
        if (!STATE.compareAndSet(this, WRITER, 0)) {
            releaseWrite(0);
        }
        writers.unlock();
    }

    @Override
    public void downgrade() {
        releaseWrite(READER);
        writers.unlock();
    }

    // ---------------------------------------------------------------------------------------- shared

    @Override
    public void lockShared() {
        if (!tryLockShared()) {
            try {
                acquireShared(Mode.UNINTERRUPTIBLE, 0L);
            } catch (InterruptedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }

    @Override
    public void lockSharedInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!tryLockShared()) {
            acquireShared(Mode.INTERRUPTIBLE, 0L);
        }
    }

    /**
     * Fails while a writer holds the lock or waits for the readers inside (WRITER), so readers cannot keep it out.
     * Optimistic: counts the caller in with one atomic add and takes it back out if WRITER was set (see notes).
     */
    @Override
    public boolean tryLockShared() {
        int before = (int) STATE.getAndAdd(this, READER);
        if ((before & WRITER) == 0) {
            if ((before >>> READER_SHIFT) >= MAX_READERS) {
                unlockShared();
                throw new Error("Maximum lock count exceeded");
            }
            return true;
        }
        unlockShared(); // a writer holds the lock or drains it: never entered; may be the last one out (I4)
        return false;
    }

    @Override
    public boolean tryLockSharedNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLockShared()) {
            return true;
        }
        return nanos > 0L && acquireShared(Mode.TIMED, nanos);
    }

    @Override
    public void unlockShared() {
        int before = (int) STATE.getAndAdd(this, -READER);
        if ((before & DRAIN_PARKED) != 0 && (before >>> READER_SHIFT) == 1) {
            LockSupport.unpark(drainer); // the last reader out lets the waiting writer in (I4); null-safe
        }
    }

    @Override
    public boolean isWriteLocked() {
        int s = state;
        return (s & WRITER) != 0 && (s >>> READER_SHIFT) == 0;
    }

    @Override
    public boolean isLocked() {
        return (state & ~FLAGS) != 0;
    }

    /** A writer's release ends with its {@code writers} mutex's release store. */
    @Override
    public boolean releasesByStore() {
        return writers.releasesByStore();
    }

    @Override
    public long spins() {
        return spins + writers.spins();
    }

    @Override
    public long parks() {
        return parks + writers.parks();
    }

    @Override
    public long handoffs() {
        long readerGrants;
        synchronized (queue) {
            readerGrants = grants;
        }
        return readerGrants + writers.handoffs();
    }

    @Override
    public void countPark() {
        PARKS.getAndAdd(this, 1L);
    }

    /** Moves the readers' fairness timer {@code nanos} from now; for tests that need waking or granting on cue. */
    void rearmReaderFairness(long nanos) {
        synchronized (queue) {
            fairness.rearm(nanos);
        }
    }

    /** Parked readers; for tests. */
    int queued() {
        synchronized (queue) {
            return queue.size();
        }
    }

    /** The shared holders now; for tests. */
    int readers() {
        return state >>> READER_SHIFT;
    }

    // ------------------------------------------------------------------------------- exclusive, slow

    /**
     * With {@code writers} held: spins with the lock open (and takes it there if the word reads 0), then sets WRITER
     * and waits for the readers inside to leave. True once the caller holds the lock; false (TIMED) or
     * InterruptedException (INTERRUPTIBLE) after releasing everything it took.
     */
    private boolean claim(Mode mode, long deadline) throws InterruptedException {
        if (spinWhileOpen()) {
            return true;
        }
        if (mode == Mode.TIMED && deadline - System.nanoTime() <= 0L) {
            writers.unlock(); // the time ran out while the lock was open: never close it for nothing
            return false;
        }
        if (mode == Mode.INTERRUPTIBLE && Thread.interrupted()) {
            writers.unlock();
            throw new InterruptedException();
        }
        int before;
        do {
            before = state; // WRITER is clear (I1)
        } while (!STATE.compareAndSet(this, before, before | WRITER));
        if ((before >>> READER_SHIFT) == 0 || spinUntilDrained()) {
            return true;
        }
        Thread me = Thread.currentThread();
        drainer = me;
        for (; ; ) {
            int s = state;
            if ((s >>> READER_SHIFT) == 0) {
                return true; // DRAIN_PARKED not set
            }
            if ((s & DRAIN_PARKED) != 0 || STATE.compareAndSet(this, s, s | DRAIN_PARKED)) {
                break;
            }
        }
        boolean interrupted = false;
        try {
            for (; ; ) {
                if ((state >>> READER_SHIFT) == 0) {
                    clearDrainParked();
                    return true;
                }
                PARKS.getAndAdd(this, 1L);
                if (mode == Mode.TIMED) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0L) {
                        abandonClaim();
                        return false;
                    }
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
                if (Thread.interrupted()) {
                    if (mode == Mode.UNINTERRUPTIBLE) {
                        interrupted = true;
                    } else if ((state >>> READER_SHIFT) == 0) {
                        clearDrainParked();
                        interrupted = true; // acquired meanwhile: keep it, report the interrupt
                        return true;
                    } else {
                        abandonClaim();
                        throw new InterruptedException();
                    }
                }
            }
        } finally {
            if (interrupted) {
                me.interrupt();
            }
        }
    }

    /**
     * With {@code writers} held and the lock still open: spins up to OPEN_SPINS for the word to be 0 (the readers
     * inside gone, new ones still let in), and closes it then with CAS(0, WRITER); true if the caller holds the lock.
     */
    private boolean spinWhileOpen() {
        int limit = spinLimit(openSpins);
        for (int i = 0; i < limit; i++) {
            Thread.onSpinWait();
            if (state == 0 && STATE.compareAndSet(this, 0, WRITER)) {
                countSpins(i + 1);
                return true;
            }
        }
        countSpins(limit);
        return false;
    }

    /** Spins, while WRITER keeps new readers out, until the count is 0 or DRAIN_SPINS; true if drained. */
    private boolean spinUntilDrained() {
        int limit = spinLimit(drainSpins);
        for (int i = 0; ; i++) {
            if ((state >>> READER_SHIFT) == 0) {
                countSpins(i);
                return true;
            }
            if (i >= limit) {
                countSpins(i);
                return false;
            }
            Thread.onSpinWait();
        }
    }

    /** {@code bound}, or 0 when the engine is configured not to spin ({@code adaptive.spin.max} = 0). */
    private int spinLimit(int bound) {
        return tuning.get().maxSpins() == 0 ? 0 : bound;
    }

    private void countSpins(int n) {
        if (n > 0) {
            SPINS.getAndAdd(this, (long) n);
        }
    }

    private void clearDrainParked() {
        for (; ; ) {
            int s = state;
            if (STATE.compareAndSet(this, s, s & ~DRAIN_PARKED)) {
                drainer = null;
                return;
            }
        }
    }

    /** A writer that gave up while readers were inside: opens the lock again and leaves {@code writers}. */
    private void abandonClaim() {
        drainer = null;
        releaseWrite(0);
        writers.unlock();
    }

    /**
     * Clears WRITER and DRAIN_PARKED and adds {@code keepReaders} (0, or READER for a downgrade) in one CAS; if
     * readers are parked, does it under the monitor, emptying the queue: every parked reader is woken, or, when the
     * readers' fairness timer has expired, counted in by the same CAS and granted.
     */
    private void releaseWrite(int keepReaders) {
        for (; ; ) {
            int s = state;
            if ((s & READERS_PARKED) != 0) {
                releaseWriteWakingReaders(keepReaders);
                return;
            }
            if (STATE.compareAndSet(this, s, (s & ~(WRITER | DRAIN_PARKED)) + keepReaders)) {
                return;
            }
        }
    }

    private void releaseWriteWakingReaders(int keepReaders) {
        Thread[] wake;
        synchronized (queue) {
            int n = queue.size();
            boolean grant = n > 0 && fairness.dueAt(System.nanoTime()); // re-arms itself
            int admitted = keepReaders + (grant ? n * READER : 0);
            for (; ; ) {
                int s = state;
                if (STATE.compareAndSet(this, s, (s & ~(WRITER | DRAIN_PARKED | READERS_PARKED)) + admitted)) {
                    break;
                }
            }
            wake = new Thread[n];
            int status = grant ? AdaptiveWaiter.GRANTED : AdaptiveWaiter.WOKEN;
            for (int i = 0; i < n; i++) {
                AdaptiveWaiter w = queue.pollFirst();
                w.status = status;
                wake[i] = w.thread;
            }
            if (grant) {
                grants += n;
            }
        }
        for (Thread t : wake) {
            LockSupport.unpark(t);
        }
    }

    // ---------------------------------------------------------------------------------- shared, slow

    private static void checkReaderCount(int s) {
        if ((s >>> READER_SHIFT) == MAX_READERS) {
            throw new Error("Maximum lock count exceeded");
        }
    }

    private boolean acquireShared(Mode mode, long nanos) throws InterruptedException {
        long deadline = mode == Mode.TIMED ? System.nanoTime() + nanos : 0L;
        AdaptiveWaiter node = null;
        for (; ; ) {
            if (spinShared(node != null)) {
                return true;
            }
            if (mode == Mode.TIMED && deadline - System.nanoTime() <= 0L) {
                return false; // not queued
            }
            if (node == null) {
                node = new AdaptiveWaiter(mode, deadline);
            } else {
                node.status = AdaptiveWaiter.WAITING; // woken and lost the race: the waker has dequeued it
            }
            if (!queueUnlessOpen(node)) {
                return true;
            }
            int outcome = node.await(this);
            if (outcome != AdaptiveWaiter.WOKEN) {
                return outcome == AdaptiveWaiter.GRANTED;
            }
            // woken: compete again
        }
    }

    /**
     * Enters while WRITER is clear (barging past parked readers is harmless: they wait only for a writer); spins
     * while it is set, up to READER_SPINS, and only while the writer is not parked draining and no reader is parked
     * (unless the caller was just woken). True if the caller now holds the lock shared.
     */
    private boolean spinShared(boolean woken) {
        int limit = spinLimit(readerSpins);
        for (int i = 0; ; i++) {
            int s = state;
            if ((s & WRITER) == 0) {
                checkReaderCount(s);
                if (STATE.compareAndSet(this, s, s + READER)) {
                    countSpins(i);
                    return true;
                }
                continue;
            }
            if ((s & DRAIN_PARKED) != 0 || ((s & READERS_PARKED) != 0 && !woken) || i >= limit) {
                countSpins(i);
                return false; // the writer waits for a reader that does not run, readers are parked, or time is up
            }
            Thread.onSpinWait();
        }
    }

    /** Under the monitor: enters if WRITER is clear (returns false); else sets READERS_PARKED and queues the node. */
    private boolean queueUnlessOpen(AdaptiveWaiter node) {
        synchronized (queue) {
            for (; ; ) {
                int s = state;
                if ((s & WRITER) == 0) {
                    checkReaderCount(s);
                    if (STATE.compareAndSet(this, s, s + READER)) {
                        return false;
                    }
                } else if ((s & READERS_PARKED) != 0 || STATE.compareAndSet(this, s, s | READERS_PARKED)) {
                    break;
                }
            }
            queue.addLast(node);
            return true;
        }
    }

    /** Gives up waiting; false if the node was granted meanwhile (the caller holds the lock), true if it left. */
    @Override
    public boolean cancel(AdaptiveWaiter node) {
        synchronized (queue) {
            int st = node.status;
            if (st == AdaptiveWaiter.GRANTED) {
                return false;
            }
            if (st == AdaptiveWaiter.WAITING) {
                queue.remove(node);
                if (queue.isEmpty()) {
                    for (; ; ) { // WRITER is set (I2): only the flag changes
                        int s = state;
                        if (STATE.compareAndSet(this, s, s & ~READERS_PARKED)) {
                            break;
                        }
                    }
                }
            }
            return true; // WOKEN: the release woke every parked reader, nothing to pass on (I4)
        }
    }
}
