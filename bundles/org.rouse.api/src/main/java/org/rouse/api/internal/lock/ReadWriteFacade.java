package org.rouse.api.internal.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.rouse.api.internal.Arguments;
import org.rouse.lock.LockStatistics;
import org.rouse.lock.SwappableReadWriteLock;
import org.rouse.lock.spi.AqsReadWrite;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * The read-write facade consumers hold: a reentrant read-write lock with write conditions and counters over a
 * swappable, non-reentrant {@link ReadWritePrimitive}.
 *
 * <pre>{@code
 * ReadWriteFacade lock = new ReadWriteFacade("routes", "routes", FallbackReadWrite.create());
 * lock.readLock().lock();
 * try {
 *     // ... read
 * } finally {
 *     lock.readLock().unlock();
 * }
 * lock.swapTo(engine.newReadWritePrimitive("adaptive"), "adaptive"); // never blocks
 * }</pre>
 */
public final class ReadWriteFacade implements SwappableReadWriteLock {

    /*
     * Implementation notes.
     *
     * Sources. LockFacade's swap protocol and proof, read with "owns `current`" as "owns `current` in either mode";
     * ReentrantReadWriteLock for the reentrancy rules (per-thread read hold counts in a ThreadLocal, a writer may
     * take the read lock and downgrade by releasing the write lock, no upgrade) and for what the conformance suite
     * checks against.
     *
     * Terms. A thread is admitted as a writer (holds the facade exclusively) from the moment it owns the primitive
     * `current` exclusively and has re-read `current` and found that same primitive, until it starts its final
     * write unlock. It is admitted as a reader from the moment it holds `current` shared and has re-read `current`
     * and found the same primitive, until its final read unlock releases that primitive. Primitives are never reused,
     * so `p == current` cannot be fooled by ABA.
     *
     * Algorithm. Acquire in mode m: p = current; acquire p in m; if (p == current) admitted; else release p in m and
     * retry. The first attempt does not wait (tryLock / tryLockShared: no clock read); only when it fails is the
     * acquisition contended and timed. A reader's final unlock releases `current`: the primitive it was admitted
     * through stays `current` until then (invariant 2), so the reader records only that it holds it shared
     * (ReadHold.sharedHeld). A first read tries the primitive before it asks whether the caller is the writer, so the
     * common read touches no field the writer writes: the writer's own attempt fails, as any caller's does while the
     * primitive is held exclusively (ReadWritePrimitive's contract), and only then is its read recognised by
     * `ownerId`. Reads taken by the writer are counted only (sharedHeld false): the writer's exclusive
     * hold covers them. A final write unlock with such reads left downgrades the primitive (exclusive to shared,
     * atomic in the primitive) instead of releasing it, and the reads now hold it shared (sharedHeld true); a pending
     * swap then waits for the final read unlock.
     *
     * Dispatch. The acquire and release calls into a primitive go through exclusiveTry, exclusiveLock, ...,
     * sharedUnlock, which call an AqsReadWrite (the `jdk` and `fallback` strategies; a final class) directly after one
     * class-pointer comparison, for the reason LockFacade's notes give for AqsMutex: once three or more primitive
     * classes have passed through this code's call sites, an interface call there is megamorphic (never inlined).
     * AqsReadWrite also keeps no per-thread read counts of its own, so a reader pays for one ReadHold lookup (the
     * facade's), not two as over a ReentrantReadWriteLock.
     *
     * Swap (never blocks the swapper): swapTo(next) stores pending = next and calls helpPendingSwap(): if
     * current.tryLock() (exclusive) succeeds and it is still current, the swapper holds the only admission ticket of
     * either mode, so it sets current = pending and releases the old primitive. Otherwise whoever holds the primitive
     * finishes it: a writer in its final unlock (before releasing the old primitive, as in LockFacade), a reader
     * after its final read unlock (it re-reads pending and helps the same way, so the last reader out performs the
     * swap). A swapper that itself holds the primitive, in either mode, cannot take it exclusively (tryLock fails for
     * a reader; a writer only records the request), and its own release re-reads pending.
     *
     * Invariants.
     * 1. Only an exclusive owner of `current` writes `current`: both writers (release() and helpPendingSwap()) write
     *    it while owning the primitive that is `current` at that moment exclusively.
     * 2. Exclusion. Let T be admitted through p in any mode. From T's check `p == current` until T's final release
     *    of p, `current` stays p: by invariant 1 only an exclusive owner of p can change it, and while T holds p
     *    (shared or exclusive) no other thread owns p exclusively (the primitive's own exclusion); T itself, if a
     *    writer, changes it only in its final unlock, after its admission ends. A thread U admitted through q != p
     *    checked `q == current` at an instant outside T's interval, and `current` stays q through U's interval, so
     *    the intervals are disjoint. Hence a thread admitted through one primitive never overlaps one admitted
     *    through another, and through the same primitive the primitive's modes apply: a writer overlaps nobody,
     *    readers overlap only readers. A downgrade keeps p held throughout (exclusive, then shared, atomically), so
     *    `current` stays p across it.
     * 3. Visibility. A writer's writes happen-before its volatile write of `current` or its release of the primitive;
     *    the next admitted thread read that `current` or acquired that primitive. Fields written only by the writer
     *    (owner, holds, write counters) are thus guarded by the facade's write lock; fields of a ReadHold are written
     *    only by its own thread; statistics snapshots read both racily.
     * 4. Liveness of a swap. As in LockFacade: every release, shared or exclusive, is a write in the primitive
     *    followed by a read of `pending`; the swapper writes `pending` and then reads the primitive's state in
     *    tryLock; one sees the other, and where the write is a release store (releasesByStore(): `adaptive`'s writer
     *    release) the swapper retries its tryLock for a while, as LockFacade's does, but only while isLocked() reads
     *    false: AdaptiveReadWrite frees its word by a CAS before its writers' mutex by the release store, so a
     *    release in flight reads free, while readers inside read held (a reader's own final unlock, which helps too,
     *    then leaves the swap to the last reader out instead of spinning). A writer that holds the writers' mutex
     *    but has not yet closed the word (AdaptiveReadWrite's open spin) also reads free for a moment; the retries
     *    then run out, as they are bounded, and that writer's own final unlock performs the swap.
     *    Acquisitions that give up (timeout, interrupt) re-read `pending` too. Threads waiting on an old primitive
     *    drain: each admission attempt through a stale primitive releases it at once.
     * 5. Conditions (FacadeCondition) belong to the write lock; their queues are touched only by the writer.
     *
     * Read records by thread id. Every reader's record is its ThreadLocal's value; `readSlots` caches records by the
     * low bits of their thread's id so that a reader finds its own without the ThreadLocal. A reader whose slot is
     * free claims it by a CAS from null; nobody writes a slot after that, so the array is read-only once its slots
     * are taken and every reader's lookup is one read of a slot and one of the record's final `threadId`. The slot is
     * read racily: a record reached through it is fully seen (its only field read by other threads is final), a stale
     * null sends the reader to the ThreadLocal, and it uses the record only if the id is its own. Thread ids are not
     * reused (the JDK draws them from a 64-bit counter, the assumption ReentrantReadWriteLock's cachedHoldCounter
     * makes too), so a slot never answers for another thread. A reader whose slot another thread holds (a 33rd
     * concurrent reader, or ids that share their low bits; a pool that replaces its threads fills the slots with
     * records of ended threads) uses the ThreadLocal on every acquisition and release, as every reader but the first
     * did before the slots. Why a slot is never overwritten: a reader that stored its record on a miss (as
     * ReentrantReadWriteLock's cachedHoldCounter, a one-entry cache of the last reader) would, with readers on two
     * cores, store into a line every other reader reads (JMH ReadLockCosts -t 2: a read lock and unlock over such a
     * cache took 2.5-3x the time it takes without; docs/performance.md, "Read-write locks: the first reader's
     * record"). The slots replaced a single first reader's record: read-mostly at 16 threads, the other 15 readers'
     * two ThreadLocal lookups per read cost the facade about 5 % of its throughput (docs/performance.md,
     * "Read-write locks: a record slot per reader"). The record keeps the thread's id, not the Thread, so that
     * neither `readRecords` nor a slot keeps a thread alive.
     *
     * Costs. A read acquisition: one read of the caller's slot and of its record's id (a ThreadLocal lookup when the
     * slot is another thread's), the primitive's shared acquisition, one volatile read of `current`;
     * its counters are plain fields of the thread's own ReadHold, so readers share no counter cache line. The release:
     * the same lookup, one volatile read of `current` (the held primitive), its shared release, one volatile read of
     * `pending`. Each thread that ever reads the lock keeps its ReadHold (about 48 bytes) in `readRecords` for
     * statistics while the lock lives; the slots cost 32 references per lock. Write acquisitions cost what a
     * LockFacade acquisition costs. Sampled waits (one contended acquisition in WAIT_SAMPLE_EVERY per mode and
     * thread) and write hold times (one in HOLD_SAMPLE_EVERY, on contended locks) go into the histograms under the
     * `samples` monitor, never on the common path.
     */

    private static final VarHandle PENDING;
    private static final VarHandle READ_SLOTS = MethodHandles.arrayElementVarHandle(ReadHold[].class);
    /** Slots of {@code readSlots}: readers with distinct low id bits each find their record in one. */
    private static final int READ_SLOT_COUNT = 32;

    private static final int READ_SLOT_MASK = READ_SLOT_COUNT - 1;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PENDING = lookup.findVarHandle(ReadWriteFacade.class, "pending", ReadWritePrimitive.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One contended acquisition in this many (per mode; per thread for reads) has its wait recorded. */
    static final int WAIT_SAMPLE_EVERY = LockFacade.WAIT_SAMPLE_EVERY;

    /** One outermost write acquisition in this many has its hold time recorded, once the lock has been contended. */
    static final int HOLD_SAMPLE_EVERY = LockFacade.HOLD_SAMPLE_EVERY;

    private final String name;
    private final String policyKey;

    /** The primitive that admits holders; volatile, written only by a thread owning the current one exclusively. */
    private volatile ReadWritePrimitive current;
    /** The primitive to swap to, or null; volatile, set by swapTo (any thread), taken by getAndSet by the swapper. */
    @SuppressWarnings("unused") // accessed through PENDING
    private volatile ReadWritePrimitive pending;
    /** The strategy the front last asked for; volatile, written by the front under its own lock. */
    private volatile String targetStrategy;

    /**
     * The writer's thread id, or 0; written only by the writer, read by others only to compare with their own id. An
     * id rather than the Thread, as LockFacade's ownerId: a reference store here would run G1's full post-write
     * barrier on every write acquisition.
     */
    private long ownerId;
    /** The writer's reentrant write hold count; writer-only. */
    private int holds;
    /** Whether the writer took read holds while writing (they need a downgrade at the final write unlock). */
    private boolean ownerReads;
    /** Outermost write acquisitions; plain, writer-written. */
    private long writeAcquisitions;
    /** Write acquisitions whose first attempt failed; plain, writer-written. */
    private long writeContended;
    /** Swaps performed; plain, written by the thread performing the swap while it owns the old primitive. */
    private long swaps;
    /** Engine counters of swapped-out primitives; plain, written like {@code swaps}. */
    private long retiredSpins;

    private long retiredParks;
    private long retiredHandoffs;
    /** When the sampled write hold began, or 0; writer-only. */
    private long holdStart;

    /** Guards {@code histograms} and {@code longestWaitNanos}: readers sample concurrently. */
    private final Object samples = new Object();
    /** Wait and write-hold histograms, null until the first sampled contended acquisition; guarded by samples. */
    private LockHistograms histograms;
    /** Longest sampled wait of either mode; guarded by samples. */
    private long longestWaitNanos;
    /** Whether the lock has been contended (histograms exist); volatile, set once under samples. */
    private volatile boolean contended;

    /** Every thread's read record, for statistics; lock-free queue, a record added once per thread. */
    private final ConcurrentLinkedQueue<ReadHold> readRecords = new ConcurrentLinkedQueue<>();
    /** The calling thread's read record. */
    private final ThreadLocal<ReadHold> readHolds = ThreadLocal.withInitial(this::newReadHold);
    /**
     * Read records by thread id: slot {@code id & READ_SLOT_MASK} caches the record of the first thread that claimed
     * it, for good (see the implementation notes). Claimed by CAS from null (READ_SLOTS), then never written.
     */
    private final ReadHold[] readSlots = new ReadHold[READ_SLOT_COUNT];

    private final ReadLock readLock = new ReadLock();
    private final WriteLock writeLock = new WriteLock();

    /** One thread's read holds of this lock; every field is written only by that thread. */
    private static final class ReadHold {
        /** The id of the thread these holds belong to. */
        final long threadId;
        /** Reentrant read holds. */
        int count;
        /**
         * Whether they hold {@code current} shared, false while the thread's write hold covers them; meaningful while
         * {@code count} is not 0. A flag rather than the primitive: the held primitive stays {@code current} until
         * the final release (invariant 2), and storing a reference into this record, once it is old, runs G1's full
         * post-write barrier (a StoreLoad fence on JDK 17) on every read acquisition.
         */
        boolean sharedHeld;
        /** Outermost read acquisitions (plain; read racily by statistics). */
        long acquisitions;
        /** Read acquisitions whose first attempt failed (plain; read racily by statistics). */
        long contended;

        ReadHold(long threadId) {
            this.threadId = threadId;
        }
    }

    /**
     * Creates an unlocked facade.
     *
     * @param name the lock's name
     * @param policyKey the name the strategy patterns are matched against (the stripe set's name for a stripe)
     * @param initial the first primitive; never shared with another facade
     */
    public ReadWriteFacade(String name, String policyKey, ReadWritePrimitive initial) {
        this.name = Arguments.name(name, "name");
        this.policyKey = Arguments.name(policyKey, "policyKey");
        this.current = Arguments.notNull(initial, "initial");
        this.targetStrategy = initial.strategy();
    }

    private ReadHold newReadHold() {
        ReadHold h = new ReadHold(Thread.currentThread().getId());
        readRecords.add(h);
        return h;
    }

    /** The calling thread's read record: its slot's if the slot is the caller's, else the ThreadLocal's. */
    private ReadHold readHold() {
        long me = Thread.currentThread().getId();
        ReadHold h = readSlots[(int) me & READ_SLOT_MASK]; // a racy read: threadId is final (see the notes)
        if (h != null && h.threadId == me) {
            return h;
        }
        return readHoldBySlowLookup(me);
    }

    /** The ThreadLocal's record of the caller, which claims its slot if the slot is still free. */
    private ReadHold readHoldBySlowLookup(long me) {
        ReadHold h = readHolds.get();
        int slot = (int) me & READ_SLOT_MASK;
        if (readSlots[slot] == null) {
            READ_SLOTS.compareAndSet(readSlots, slot, (ReadHold) null, h); // once per slot: never a shared write after
        }
        return h;
    }

    // -------------------------------------------------------------------------------------- ReadWriteLock

    @Override
    public Lock readLock() {
        return readLock;
    }

    @Override
    public Lock writeLock() {
        return writeLock;
    }

    @Override
    public String name() {
        return name;
    }

    /** The strategy of the primitive in force now (a pending swap shows once it is done). */
    @Override
    public String strategy() {
        return current.strategy();
    }

    @Override
    public boolean isWriteLockedByCurrentThread() {
        return ownerId == Thread.currentThread().getId();
    }

    @Override
    public int writeHoldCount() {
        return ownerId == Thread.currentThread().getId() ? holds : 0;
    }

    @Override
    public int readHoldCount() {
        return readHold().count;
    }

    @Override
    public boolean isWriteLocked() {
        return current.isWriteLocked();
    }

    /** Whether any thread holds the lock in either mode (a snapshot). */
    boolean isLocked() {
        return current.isLocked();
    }

    @Override
    public LockStatistics statistics() {
        ReadWritePrimitive p = current;
        long acquisitions = writeAcquisitions;
        long contendedAcquisitions = writeContended;
        for (ReadHold h : readRecords) {
            acquisitions += h.acquisitions;
            contendedAcquisitions += h.contended;
        }
        synchronized (samples) {
            LockHistograms h = histograms;
            return new LockCounts(
                    acquisitions,
                    contendedAcquisitions,
                    longestWaitNanos,
                    swaps,
                    retiredSpins + p.spins(),
                    retiredParks + p.parks(),
                    retiredHandoffs + p.handoffs(),
                    h == null ? null : h.waits(),
                    h == null ? null : h.holds());
        }
    }

    @Override
    public String toString() {
        return "SwappableReadWriteLock[" + name + ", " + strategy()
                + (isWriteLocked() ? ", write-locked]" : isLocked() ? ", read-locked]" : ", unlocked]");
    }

    // ------------------------------------------------------------------------------------- front-facing

    /**
     * Asks to replace the primitive by {@code next}; never blocks. The swap happens now if the lock is free, else
     * when its last holder releases it. A later request replaces an earlier one that is still pending.
     *
     * @param next a new, unlocked primitive used by no other facade
     * @param strategy the strategy the front asked for (may differ from {@code next.strategy()} for a fallback)
     */
    public void swapTo(ReadWritePrimitive next, String strategy) {
        Arguments.notNull(next, "next");
        targetStrategy = Arguments.notNull(strategy, "strategy");
        PENDING.setVolatile(this, next);
        if (ownerId != Thread.currentThread().getId()) {
            helpPendingSwap(); // a writer must not touch its primitive again: its own final unlock swaps
        }
    }

    /** The name strategy patterns are matched against. */
    String policyKey() {
        return policyKey;
    }

    /** The strategy the front last asked for. */
    String targetStrategy() {
        return targetStrategy;
    }

    /** Whether a swap was requested and not yet performed (for tests and monitoring). */
    boolean swapPending() {
        return PENDING.getVolatile(this) != null;
    }

    // ------------------------------------------------------------------------------------ swap internals

    /** Performs a pending swap if nobody holds the primitive now; otherwise leaves it to its last holder. */
    private void helpPendingSwap() {
        ReleaseStoreRetries retries = null;
        while (PENDING.getVolatile(this) != null) {
            ReadWritePrimitive p = current;
            if (!exclusiveTry(p)) {
                if (p.releasesByStore() && !p.isLocked()) { // a release store in flight may have missed us (notes, 4)
                    if (retries == null) {
                        retries = new ReleaseStoreRetries();
                    }
                    if (retries.another()) {
                        continue;
                    }
                }
                return; // its holders re-check pending after releasing it
            }
            if (p == current) {
                swapWhileOwning(p);
            }
            exclusiveUnlock(p);
        }
    }

    /** Caller owns {@code held} exclusively, and it is {@code current}: installs the pending primitive, if any. */
    private void swapWhileOwning(ReadWritePrimitive held) {
        if (PENDING.getVolatile(this) == null) {
            return;
        }
        ReadWritePrimitive next = (ReadWritePrimitive) PENDING.getAndSet(this, (ReadWritePrimitive) null);
        if (next != null && next != held) {
            swaps++;
            retiredSpins += held.spins();
            retiredParks += held.parks();
            retiredHandoffs += held.handoffs();
            current = next;
        }
    }

    // -------------------------------------------------------------------------------- calls into a primitive

    // The calls into a primitive on the acquisition and release paths. An AqsReadWrite (final; the `jdk` and
    // `fallback` strategies) is called directly: one class-pointer comparison, then an inlined call, whatever other
    // primitive classes this code has seen, so those strategies never pay a megamorphic interface dispatch.

    private static boolean exclusiveTry(ReadWritePrimitive p) {
        return p instanceof AqsReadWrite a ? a.tryLock() : p.tryLock();
    }

    private static void exclusiveLock(ReadWritePrimitive p) {
        if (p instanceof AqsReadWrite a) {
            a.lock();
        } else {
            p.lock();
        }
    }

    private static void exclusiveLockInterruptibly(ReadWritePrimitive p) throws InterruptedException {
        if (p instanceof AqsReadWrite a) {
            a.lockInterruptibly();
        } else {
            p.lockInterruptibly();
        }
    }

    private static boolean exclusiveTryNanos(ReadWritePrimitive p, long nanos) throws InterruptedException {
        return p instanceof AqsReadWrite a ? a.tryLockNanos(nanos) : p.tryLockNanos(nanos);
    }

    private static void exclusiveUnlock(ReadWritePrimitive p) {
        if (p instanceof AqsReadWrite a) {
            a.unlock();
        } else {
            p.unlock();
        }
    }

    private static boolean sharedTry(ReadWritePrimitive p) {
        return p instanceof AqsReadWrite a ? a.tryLockShared() : p.tryLockShared();
    }

    private static void sharedLock(ReadWritePrimitive p) {
        if (p instanceof AqsReadWrite a) {
            a.lockShared();
        } else {
            p.lockShared();
        }
    }

    private static void sharedLockInterruptibly(ReadWritePrimitive p) throws InterruptedException {
        if (p instanceof AqsReadWrite a) {
            a.lockSharedInterruptibly();
        } else {
            p.lockSharedInterruptibly();
        }
    }

    private static boolean sharedTryNanos(ReadWritePrimitive p, long nanos) throws InterruptedException {
        return p instanceof AqsReadWrite a ? a.tryLockSharedNanos(nanos) : p.tryLockSharedNanos(nanos);
    }

    private static void sharedUnlock(ReadWritePrimitive p) {
        if (p instanceof AqsReadWrite a) {
            a.unlockShared();
        } else {
            p.unlockShared();
        }
    }

    // -------------------------------------------------------------------------------------- write side

    private void checkWriteHeld() {
        if (ownerId != Thread.currentThread().getId()) {
            throw new IllegalMonitorStateException(
                    "The write lock of '" + name + "' is not held by the current thread");
        }
    }

    private boolean tryWriteFast() {
        for (; ; ) {
            ReadWritePrimitive p = current;
            if (!exclusiveTry(p)) {
                return false;
            }
            if (p == current) {
                return true;
            }
            exclusiveUnlock(p); // a stale primitive: swapped while we were getting it
        }
    }

    private void acquireWriteUninterruptibly(Thread me) {
        if (tryWriteFast()) {
            writeAcquired(me);
            return;
        }
        long start = System.nanoTime();
        for (; ; ) {
            ReadWritePrimitive p = current;
            exclusiveLock(p);
            if (p == current) {
                writeAcquiredContended(me, start);
                return;
            }
            exclusiveUnlock(p);
        }
    }

    private void writeAcquired(Thread me) {
        ownerId = me.getId();
        holds = 1;
        long n = writeAcquisitions++;
        if ((n & (HOLD_SAMPLE_EVERY - 1)) == 0 && contended) {
            holdStart = System.nanoTime();
        }
    }

    private void writeAcquiredContended(Thread me, long start) {
        ownerId = me.getId();
        holds = 1;
        long n = writeAcquisitions++;
        long c = writeContended++;
        boolean sampleWait = (c & (WAIT_SAMPLE_EVERY - 1)) == 0;
        boolean sampleHold = (n & (HOLD_SAMPLE_EVERY - 1)) == 0;
        if (sampleWait || sampleHold) {
            long now = System.nanoTime();
            if (sampleWait) {
                recordWait(now - start);
            }
            if (sampleHold) {
                holdStart = now;
            }
        }
    }

    private void recordWait(long waited) {
        synchronized (samples) {
            LockHistograms h = histograms;
            if (h == null) {
                histograms = h = new LockHistograms();
                contended = true;
            }
            if (waited > longestWaitNanos) {
                longestWaitNanos = waited;
            }
            h.recordWait(waited);
        }
    }

    private void endWriteHold() {
        if (holdStart != 0L) {
            long held = System.nanoTime() - holdStart;
            holdStart = 0L;
            synchronized (samples) {
                if (histograms != null) {
                    histograms.recordHold(held);
                }
            }
        }
    }

    private void writeUnlock() {
        checkWriteHeld();
        if (--holds == 0) {
            releaseWrite();
        }
    }

    /** Ends the write hold (holds already 0): downgrades to the writer's own reads, or releases with the swap. */
    private void releaseWrite() {
        endWriteHold();
        ownerId = 0L;
        if (ownerReads) {
            ownerReads = false;
            ReadHold h = readHold();
            if (h.count > 0) {
                ReadWritePrimitive p = current;
                p.downgrade(); // still holds p, now shared: `current` stays p, a pending swap waits for the reads
                h.sharedHeld = true;
                return;
            }
        }
        ReadWritePrimitive held = current;
        swapWhileOwning(held);
        exclusiveUnlock(held);
        if (PENDING.getVolatile(this) != null) {
            helpPendingSwap();
        }
    }

    /** Releases every write hold of the caller; returns the count to restore (for conditions). */
    private int releaseWriteFully() {
        int saved = holds;
        holds = 0;
        releaseWrite();
        return saved;
    }

    private final FacadeCondition.Host conditionHost = new FacadeCondition.Host() {
        @Override
        public void checkHeld() {
            checkWriteHeld();
        }

        @Override
        public int releaseFully() {
            return releaseWriteFully();
        }

        @Override
        public void reacquire(int saved) {
            acquireWriteUninterruptibly(Thread.currentThread());
            holds = saved;
        }
    };

    // --------------------------------------------------------------------------------------- read side

    /** One non-waiting shared attempt on the current primitive; records it in {@code h} if admitted. */
    private boolean tryReadFast(ReadHold h) {
        for (; ; ) {
            ReadWritePrimitive p = current;
            if (!sharedTry(p)) {
                return false;
            }
            if (p == current) {
                h.sharedHeld = true;
                return true;
            }
            sharedUnlock(p);
        }
    }

    /** Reentry, reads under the caller's write hold, or the fast path; true if the caller now holds a read. */
    private boolean tryReadNoWait(ReadHold h) {
        if (h.count > 0) {
            if (h.count == Integer.MAX_VALUE) {
                throw new Error("Maximum lock count exceeded");
            }
            h.count++;
            return true;
        }
        if (tryReadFast(h)) { // fails for the writer itself: the primitive is held exclusively
            h.count = 1;
            h.acquisitions++;
            return true;
        }
        if (ownerId == Thread.currentThread().getId()) {
            ownerReads = true;
            h.sharedHeld = false;
            h.count = 1;
            h.acquisitions++;
            return true;
        }
        return false;
    }

    private void readAcquiredContended(ReadHold h, long start) {
        h.sharedHeld = true;
        h.count = 1;
        h.acquisitions++;
        long c = h.contended++;
        if ((c & (WAIT_SAMPLE_EVERY - 1)) == 0) {
            recordWait(System.nanoTime() - start);
        }
    }

    private void readUnlock() {
        ReadHold h = readHold();
        if (h.count == 0) {
            throw new IllegalMonitorStateException("The read lock of '" + name + "' is not held by the current thread");
        }
        if (--h.count == 0) {
            if (h.sharedHeld) { // left as it is: every outermost acquisition sets it
                sharedUnlock(current); // the primitive it was admitted through (invariant 2)
                if (PENDING.getVolatile(this) != null) {
                    helpPendingSwap();
                }
            }
        }
    }

    /** The facade's read lock. */
    private final class ReadLock implements Lock {

        @Override
        public void lock() {
            ReadHold h = readHold();
            if (tryReadNoWait(h)) {
                return;
            }
            long start = System.nanoTime();
            for (; ; ) {
                ReadWritePrimitive p = current;
                sharedLock(p);
                if (p == current) {
                    readAcquiredContended(h, start);
                    return;
                }
                sharedUnlock(p);
            }
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            ReadHold h = readHold();
            if (tryReadNoWait(h)) {
                return;
            }
            long start = System.nanoTime();
            for (; ; ) {
                ReadWritePrimitive p = current;
                try {
                    sharedLockInterruptibly(p);
                } catch (InterruptedException e) {
                    helpPendingSwap();
                    throw e;
                }
                if (p == current) {
                    readAcquiredContended(h, start);
                    return;
                }
                sharedUnlock(p);
            }
        }

        @Override
        public boolean tryLock() {
            return tryReadNoWait(readHold());
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            Arguments.notNull(unit, "unit");
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            ReadHold h = readHold();
            if (tryReadNoWait(h)) {
                return true;
            }
            long nanos = unit.toNanos(time);
            if (nanos <= 0L) {
                return false;
            }
            long start = System.nanoTime();
            for (; ; ) {
                long remaining = nanos - (System.nanoTime() - start);
                if (remaining <= 0L) {
                    helpPendingSwap();
                    return false;
                }
                ReadWritePrimitive p = current;
                boolean got;
                try {
                    got = sharedTryNanos(p, remaining);
                } catch (InterruptedException e) {
                    helpPendingSwap();
                    throw e;
                }
                if (got) {
                    if (p == current) {
                        readAcquiredContended(h, start);
                        return true;
                    }
                    sharedUnlock(p);
                }
            }
        }

        @Override
        public void unlock() {
            readUnlock();
        }

        /** Read locks have no conditions, as in {@code ReentrantReadWriteLock}. */
        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException("read locks have no conditions");
        }

        @Override
        public String toString() {
            return "ReadLock[" + name + ", " + readHoldCount() + " holds by the current thread]";
        }
    }

    /** The facade's write lock. */
    private final class WriteLock implements Lock {

        @Override
        public void lock() {
            Thread me = Thread.currentThread();
            if (ownerId == me.getId()) {
                reenterWrite();
                return;
            }
            acquireWriteUninterruptibly(me);
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (tryLock()) {
                return;
            }
            Thread me = Thread.currentThread();
            long start = System.nanoTime();
            for (; ; ) {
                ReadWritePrimitive p = current;
                try {
                    exclusiveLockInterruptibly(p);
                } catch (InterruptedException e) {
                    helpPendingSwap();
                    throw e;
                }
                if (p == current) {
                    writeAcquiredContended(me, start);
                    return;
                }
                exclusiveUnlock(p);
            }
        }

        @Override
        public boolean tryLock() {
            Thread me = Thread.currentThread();
            if (ownerId == me.getId()) {
                reenterWrite();
                return true;
            }
            if (tryWriteFast()) {
                writeAcquired(me);
                return true;
            }
            return false;
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            Arguments.notNull(unit, "unit");
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (tryLock()) {
                return true;
            }
            Thread me = Thread.currentThread();
            long nanos = unit.toNanos(time);
            if (nanos <= 0L) {
                return false;
            }
            long start = System.nanoTime();
            for (; ; ) {
                long remaining = nanos - (System.nanoTime() - start);
                if (remaining <= 0L) {
                    helpPendingSwap();
                    return false;
                }
                ReadWritePrimitive p = current;
                boolean got;
                try {
                    got = exclusiveTryNanos(p, remaining);
                } catch (InterruptedException e) {
                    helpPendingSwap();
                    throw e;
                }
                if (got) {
                    if (p == current) {
                        writeAcquiredContended(me, start);
                        return true;
                    }
                    exclusiveUnlock(p);
                }
            }
        }

        @Override
        public void unlock() {
            writeUnlock();
        }

        @Override
        public Condition newCondition() {
            return new FacadeCondition(conditionHost);
        }

        private void reenterWrite() {
            if (holds == Integer.MAX_VALUE) {
                throw new Error("Maximum lock count exceeded");
            }
            holds++;
        }

        @Override
        public String toString() {
            return "WriteLock[" + name + (ownerId == 0L ? ", unlocked]" : ", locked]");
        }
    }
}
