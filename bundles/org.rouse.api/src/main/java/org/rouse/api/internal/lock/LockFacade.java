package org.rouse.api.internal.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.rouse.api.internal.Arguments;
import org.rouse.api.internal.events.RouseEvents;
import org.rouse.lock.LockStatistics;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.spi.AqsMutex;
import org.rouse.lock.spi.BargingMutex;
import org.rouse.lock.spi.LockPrimitive;

/**
 * The facade consumers hold: a reentrant lock with conditions and counters over a swappable, non-reentrant
 * {@link LockPrimitive}.
 *
 * <pre>{@code
 * LockFacade lock = new LockFacade("cache", "cache", FallbackMutex.create());
 * lock.lock();
 * try {
 *     // ...
 * } finally {
 *     lock.unlock();
 * }
 * lock.swapTo(engine.newPrimitive("fair"), "fair"); // never blocks; takes effect at once or at the final unlock
 * }</pre>
 */
public final class LockFacade implements SwappableLock {

    /*
     * Implementation notes.
     *
     * Sources. The admission check (acquire the current primitive, then re-read `current`) is the swap protocol of
     * docs/design.md, "Fronts and engines"; the condition queues work like AQS's ConditionObject (a FIFO of nodes per
     * condition, a node's status changed by CAS).
     *
     * Terms. A thread "holds the facade" from the moment it owns the primitive `current` *and* has re-read `current`
     * and found that same primitive, until it starts its final unlock. Primitives are never reused: the front makes a
     * new one for every swap, so `p == current` cannot be fooled by ABA.
     *
     * Algorithm. Acquire: p = current; acquire p; if (p == current) we hold the facade; else release p and retry. The
     * first attempt is p.tryLock() (no clock read); only when it fails is the acquisition contended and timed with
     * System.nanoTime().
     *
     * Dispatch. The acquire and release calls into `p` go through tryLock(p), lock(p), lockInterruptibly(p) and
     * unlock(p), which call an AqsMutex (the `jdk` and `fallback` strategies; a final class) directly after one
     * class-pointer comparison, and a BargingMutex (`adaptive`; its fast paths are final) after a superclass check.
     * The JIT profiles each call site of this class once for every facade, so once three or more primitive classes
     * have passed through (several strategies in one JVM) an interface call here is megamorphic: never inlined, an
     * itable search per call. Measured with JMH LockStrategyCosts -p mixed=true: `jdk` through the interface 19.2 ns
     * against 12.8 ns for ReentrantLock, through the direct call 13.3 ns against 13.0 (Intel host); `adaptive` with
     * four classes 9.3 ns through the interface (and a CAS release), 7.0 ns through BargingMutex (and a store
     * release), against 5.2 ns (EPYC host).
     *
     * Dispatch hint. The two calls every uncontended hold makes, the first tryLock and the final unlock, skip even
     * those tests for a BargingMutex: `currentBarging` is `current` when that is one, else null, so they read it, test
     * it for null and call it. Whichever class was tested second paid 0.2-0.4 ns per call (JMH probe, EPYC host), and
     * `adaptive`, the default, was second; now `jdk` pays a null test instead. The hint only picks the call: admission
     * still re-reads `current`, so a thread that read a hint whose swap has not yet stored `current` fails the
     * re-check (unless `current` was stored meanwhile: then it holds the new primitive rightly), releases, and asks
     * `current`. The hint is written just before `current` by the same writer, so by invariant 1 one swap's pair of
     * writes never interleaves with another's, and the holder of p finds `currentBarging == p` when p is a
     * BargingMutex and null otherwise: its final unlock takes p from the hint.
     * Measured (LockStrategyCosts -p mixed=true, 3 forks, Intel host): `adaptive` with four classes 12.06 +- 1.28 ns
     * before, 10.92 +- 0.59 after, beside ReentrantLock's 12.8-13.5.
     *
     * Swap (never blocks the swapper): swapTo(next) stores pending = next (volatile; the latest request wins) and calls
     * helpPendingSwap(): if current.tryLock() succeeds and it is still current, the swapper holds the only admission
     * ticket, so it sets current = pending and releases the old primitive. If tryLock fails, the thread that owns the
     * primitive finishes the swap: a facade holder does it in its final unlock, before releasing the old primitive
     * (release()).
     *
     * A primitive is never acquired twice by one thread (the SPI contract; a ReentrantLock-based primitive would let it
     * succeed): so a swapTo() called by the facade's own holder only records the request, and its final unlock performs
     * it.
     *
     * Conditions (FacadeCondition, shared with ReadWriteFacade's write lock). Each Condition keeps its own FIFO queue
     * of Waiter nodes inside the facade, so no signal is lost across a swap. The queue is touched only by facade
     * holders. A node moves WAITING -> SIGNALLED (signal) or WAITING
     * -> CANCELLED (timeout or interrupt) by CAS, so a signal either wakes a waiter that will return normally or skips
     * a cancelled one and goes on to the next: never both, never neither. await releases the full hold count through
     * the normal release (which also completes pending swaps), parks until its node leaves WAITING, then reacquires
     * like lock() and restores the hold count.
     *
     * Invariants.
     * 1. Only an owner of `current` writes `current` (and `currentBarging`, just before it): both writers (release()
     *    and helpPendingSwap()) write it while owning the primitive that is `current` at that moment.
     * 2. Mutual exclusion. Let T hold the facade through p. From T's check `p == current` until T's final unlock,
     *    `current` stays p, because by invariant 1 only an owner of p can change it and T owns p. Any other thread U
     *    holding the facade through q != p checked `q == current` at some instant, which therefore lies outside T's
     *    interval; by the same argument `current` stays q from U's check until U's final unlock, and so U's whole hold
     *    lies outside T's interval. Holders of the old and the new primitive thus never overlap. The unlocking thread
     *    does keep owning the *old* primitive for a moment after publishing `current = next`; it has already left its
     *    critical section (owner cleared), and meanwhile the old primitive only turns away stale acquirers.
     * 3. Visibility. The holder's writes happen-before its volatile write of `current` (or its release of the
     *    primitive); the next holder read that `current` (or acquired that primitive). So fields written only by
     *    holders (owner, reentries, counters, condition queues) need no further ordering: they are guarded by the
     *    facade lock itself.
     * 4. Liveness of a swap. A swap request must not be stranded when the swapper's tryLock fails. The holder releases
     *    the primitive and then re-reads `pending`; the swapper writes `pending` and then reads the primitive's state
     *    in tryLock. Where the release is a volatile store, by the sequential consistency of volatile accesses one of
     *    them sees the other: either the swapper's tryLock succeeds, or the releasing thread sees `pending` and helps.
     *    A primitive that releasesByStore() (`adaptive`'s BargingMutex) frees itself by a release store, which the
     *    releaser's re-read of `pending` may overtake (store buffering), while the swapper's tryLock still sees the
     *    hold: both would miss. So on such a primitive a failed tryLock is retried, at least
     *    ReleaseStoreRetries.MIN_RETRIES times and for at least ReleaseStoreRetries.MIN_NANOS, with a spin-wait:
     *    thousands of times what a store takes to become visible, though the Java memory model itself bounds no such
     *    delay. A hold it still sees then belongs to a later holder, whose acquiring CAS came after the swapper's write
     *    of `pending` and which therefore sees it at its release. The same re-check runs after a timed or interrupted
     *    acquisition gives up, for primitives (like a fair ReentrantLock) whose tryLock fails while a queued waiter is
     *    about to leave. Waiters queued on an old primitive drain: every owner of an old primitive releases it
     *    promptly, waking the next, who retries on `current`. With the dispatch hint a thread that does not hold the
     *    facade may briefly own the primitive that has just become `current` (its re-check came before `current` was
     *    stored), so a swapper's tryLock can fail without a holder to help; that thread releases it and goes straight
     *    on to tryLock(current), so it ends as a holder (whose final unlock helps) or finds the primitive owned by
     *    another thread, which is one or will do the same.
     *
     * Costs. Nothing that is not mutual exclusion runs inside the hold on the common path: an outermost
     * acquisition, contended or not, writes `ownerId` and the plain `acquisitions` counter, both in the facade's own
     * fields, so the exact count adds no atomic instruction. The holder is recorded by thread id, a long, rather than
     * as the Thread: a reference store into the facade, an old object, ran G1's full post-write barrier on every
     * acquisition, whose StoreLoad fence (JDK 17) inside the hold cost the facade 14-23 % of its primitive's
     * throughput at 64 threads on 2 cores without work (2-12 % with the id; none with ParallelGC, which has no such
     * barrier; Harness lock-facade-64, docs/performance.md, "Locks: the holder by thread id"). The hold
     * count is kept as `reentries` (holds beyond the first), which is 0 between holders, so an outermost acquisition
     * and its release neither write nor restore it: two stores fewer for the store buffer to drain (before the
     * release's fence, where the primitive's release has one). A contended acquisition reads the clock before it
     * waits (outside the hold, on the waiter's own time) and counts itself in `contendedAcquisitions` (exact, plain,
     * holder-written); only one contended acquisition in WAIT_SAMPLE_EVERY (the first, the ninth, ...) reads the
     * clock again inside the hold to record its wait into the histogram and the longest wait. Hold times are
     * sampled, one outermost acquisition in HOLD_SAMPLE_EVERY, and only once the lock has been contended: the
     * uncontended path pays one plain read of `histograms` and one test of `holdStart` in unlock. A timed hold reads
     * the clock twice and writes the histogram, all inside the hold, about 50 ns on a 2-core EPYC; on a lock that has
     * ever been contended every acquisition pays its share, so HOLD_SAMPLE_EVERY is 256 (about 0.2 ns each) rather
     * than 16 (about 3 ns each, 7 % of a 16-thread acquisition in the lock-contention benchmark). The histograms
     * (LockHistograms) are made on the first contended acquisition, so a lock that is never contended allocates
     * nothing. Engine-side counters (spins, parks, hand-offs) live in the primitive; the swap adds the old
     * primitive's counts to `retired*` while owning it, so they survive swaps (waiters still draining from an old
     * primitive after that are not counted). Monitoring reads of the plain counters are racy snapshots.
     */

    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(LockFacade.class, "pending", LockPrimitive.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final String policyKey;

    /** The primitive that admits holders; volatile, written only by a thread owning the current primitive. */
    private volatile LockPrimitive current;
    /**
     * {@code current} when it is a BargingMutex, else null: a dispatch hint that spares the fast paths a type test.
     * Volatile, written by the writer of {@code current}, just before it (see notes).
     */
    private volatile BargingMutex currentBarging;
    /** The primitive to swap to, or null; volatile, set by swapTo (any thread), taken by getAndSet by the swapper. */
    @SuppressWarnings("unused") // accessed through PENDING
    private volatile LockPrimitive pending;
    /** The strategy the front last asked for; volatile, written by the front under its own lock. */
    private volatile String targetStrategy;

    /**
     * The facade holder's thread id, or 0. Written only by the holder (set after acquiring, cleared before
     * releasing); read by any thread only to compare with its own id, which a plain read answers correctly for the
     * reading thread, as {@code AbstractOwnableSynchronizer}'s owner does. An id, not the Thread: storing a reference
     * into this long-lived object runs G1's full post-write barrier, a StoreLoad fence on JDK 17, on every
     * acquisition (see the notes, "Costs"). Thread ids are never reused (the JDK draws them from a 64-bit counter, and
     * ReentrantReadWriteLock's cachedHoldCounter relies on it too) and start at 1. The id is read through
     * Thread.getId(), which is not final on JDK 17: a Thread subclass that overrode it to return another live thread's
     * id, against its contract, would pass this check as that thread (the JDK's own locks read the field directly,
     * which a bundle cannot).
     */
    private long ownerId;
    /**
     * Holds beyond the first (the reentrant hold count minus one); read and written only by the holder, and 0 whenever
     * nobody holds the facade, so an outermost acquisition and its release do not write it.
     */
    private int reentries;
    /** Outermost acquisitions; plain, written by the holder (monitoring reads are racy snapshots). */
    private long acquisitions;
    /** Acquisitions whose first tryLock failed; plain, written by the holder. */
    private long contendedAcquisitions;
    /** Longest sampled contended wait in ns; plain, written by the holder. */
    private long longestWaitNanos;
    /** Swaps performed; plain, written by the thread performing the swap while it owns the old primitive. */
    private long swaps;
    /** Spins, parks and hand-offs of swapped-out primitives; plain, written like {@code swaps}. */
    private long retiredSpins;

    private long retiredParks;
    private long retiredHandoffs;
    /**
     * Wait and hold histograms, null until the first contended acquisition; plain, set once by a holder (holders are
     * ordered by the lock). A monitoring thread may read it racily: LockHistograms has only final fields, so if it
     * sees the object it sees it fully built.
     */
    private LockHistograms histograms;
    /** When the sampled hold began (System.nanoTime()), or 0 when this hold is not sampled; holder-only. */
    private long holdStart;

    /** One outermost acquisition in this many has its hold time recorded (a power of two). */
    static final int HOLD_SAMPLE_EVERY = 256;

    /** One contended acquisition in this many has its wait recorded (a power of two; the first one always is). */
    static final int WAIT_SAMPLE_EVERY = 8;

    /**
     * Creates an unlocked facade.
     *
     * @param name the lock's name
     * @param policyKey the name the strategy patterns are matched against (the stripe set's name for a stripe)
     * @param initial the first primitive; never shared with another facade
     */
    public LockFacade(String name, String policyKey, LockPrimitive initial) {
        this.name = Arguments.name(name, "name");
        this.policyKey = Arguments.name(policyKey, "policyKey");
        this.currentBarging = Arguments.notNull(initial, "initial") instanceof BargingMutex b ? b : null;
        this.current = initial;
        this.targetStrategy = initial.strategy();
    }

    // ----------------------------------------------------------------------------------------------- Lock

    @Override
    public void lock() {
        Thread me = Thread.currentThread();
        if (ownerId == me.getId()) {
            reenter();
            return;
        }
        acquireUninterruptibly(me);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLock()) { // reentry or the uncontended fast path: no clock read
            return;
        }
        Thread me = Thread.currentThread();
        long start = System.nanoTime();
        for (; ; ) {
            LockPrimitive p = current;
            try {
                lockInterruptibly(p);
            } catch (InterruptedException e) {
                helpPendingSwap();
                throw e;
            }
            if (p == current) {
                acquiredContended(me, start);
                return;
            }
            unlock(p);
        }
    }

    @Override
    public boolean tryLock() {
        Thread me = Thread.currentThread();
        if (ownerId == me.getId()) {
            reenter();
            return true;
        }
        if (tryAcquireFast()) {
            acquired(me);
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
        if (tryLock()) { // reentry or the uncontended fast path: no clock read
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
            LockPrimitive p = current;
            boolean got;
            try {
                got = p instanceof AqsMutex m ? m.tryLockNanos(remaining) : p.tryLockNanos(remaining);
            } catch (InterruptedException e) {
                helpPendingSwap();
                throw e;
            }
            if (got) {
                if (p == current) {
                    acquiredContended(me, start);
                    return true;
                }
                unlock(p);
            }
        }
    }

    @Override
    public void unlock() {
        if (ownerId != Thread.currentThread().getId()) {
            throw new IllegalMonitorStateException("Lock '" + name + "' is not held by the current thread");
        }
        if (reentries != 0) {
            reentries--;
        } else {
            endHold();
            ownerId = 0L;
            release();
        }
    }

    @Override
    public Condition newCondition() {
        return new FacadeCondition(conditionHost);
    }

    // ------------------------------------------------------------------------------------- SwappableLock

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
    public boolean isHeldByCurrentThread() {
        return ownerId == Thread.currentThread().getId();
    }

    @Override
    public int holdCount() {
        return ownerId == Thread.currentThread().getId() ? reentries + 1 : 0;
    }

    @Override
    public boolean isLocked() {
        return current.isLocked();
    }

    @Override
    public LockStatistics statistics() {
        LockPrimitive p = current;
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

    @Override
    public String toString() {
        return "SwappableLock[" + name + ", " + strategy() + (isLocked() ? ", locked]" : ", unlocked]");
    }

    // ------------------------------------------------------------------------------------- front-facing

    /**
     * Asks to replace the primitive by {@code next}; never blocks. The swap happens now if the lock is free, else
     * in the holder's final unlock. A later request replaces an earlier one that is still pending.
     *
     * @param next a new, unlocked primitive used by no other facade
     * @param strategy the strategy the front asked for (may differ from {@code next.strategy()} for a fallback)
     */
    public void swapTo(LockPrimitive next, String strategy) {
        Arguments.notNull(next, "next");
        targetStrategy = Arguments.notNull(strategy, "strategy");
        PENDING.setVolatile(this, next);
        if (ownerId != Thread.currentThread().getId()) {
            helpPendingSwap(); // a holder must not touch its primitive again: its own final unlock swaps
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

    // ---------------------------------------------------------------------------------------- internals

    private void reenter() {
        if (reentries == Integer.MAX_VALUE - 1) {
            throw new Error("Maximum lock count exceeded");
        }
        reentries++;
    }

    /** One non-waiting attempt: true if the caller now holds the facade. */
    private boolean tryAcquireFast() {
        for (; ; ) {
            BargingMutex b = currentBarging;
            if (b != null) {
                if (!b.tryLock()) {
                    return false;
                }
                if (b == current) {
                    return true;
                }
                b.unlock(); // swapped away, or a swap to it not yet finished: ask `current` below
            }
            LockPrimitive p = current;
            if (!tryLock(p)) {
                return false;
            }
            if (p == current) {
                return true;
            }
            unlock(p); // a stale primitive: swapped while we were getting it
        }
    }

    private void acquireUninterruptibly(Thread me) {
        if (tryAcquireFast()) {
            acquired(me);
            return;
        }
        long start = System.nanoTime();
        for (; ; ) {
            LockPrimitive p = current;
            lock(p);
            if (p == current) {
                acquiredContended(me, start);
                return;
            }
            unlock(p);
        }
    }

    /** The caller now holds the facade, at its first attempt: the common path, no clock read. */
    private void acquired(Thread me) {
        ownerId = me.getId();
        long n = acquisitions++;
        if ((n & (HOLD_SAMPLE_EVERY - 1)) == 0 && histograms != null) {
            holdStart = System.nanoTime();
        }
    }

    /** The caller now holds the facade after waiting since {@code start}; times one wait in WAIT_SAMPLE_EVERY. */
    private void acquiredContended(Thread me, long start) {
        ownerId = me.getId();
        long n = acquisitions++;
        long c = contendedAcquisitions++;
        if ((c & (WAIT_SAMPLE_EVERY - 1)) == 0 || (n & (HOLD_SAMPLE_EVERY - 1)) == 0) {
            sampleContended(c, n, start);
        }
        RouseEvents.lockContended(name, current, start); // every contended wait; reads the clock only if recording
    }

    /** The sampled part of a contended acquisition (holder only; off the common path). */
    private void sampleContended(long contendedIndex, long acquisitionIndex, long start) {
        long now = System.nanoTime();
        LockHistograms h = histograms;
        if (h == null) {
            histograms = h = new LockHistograms();
        }
        if ((contendedIndex & (WAIT_SAMPLE_EVERY - 1)) == 0) {
            long waited = now - start;
            if (waited > longestWaitNanos) {
                longestWaitNanos = waited;
            }
            h.recordWait(waited);
        }
        if ((acquisitionIndex & (HOLD_SAMPLE_EVERY - 1)) == 0) {
            holdStart = now;
        }
    }

    /** Called by the holder when its hold ends: records a sampled hold time. */
    private void endHold() {
        if (holdStart != 0L) {
            histograms.recordHold(System.nanoTime() - holdStart);
            holdStart = 0L;
        }
    }

    /** Final release by the holder (owner already cleared): performs a pending swap, then frees the primitive. */
    private void release() {
        BargingMutex b = currentBarging; // when set, the held primitive, even before `current` shows it (notes)
        if (b != null) {
            swapWhileOwning(b);
            b.unlock();
        } else {
            LockPrimitive held = current;
            swapWhileOwning(held);
            unlock(held);
        }
        if (PENDING.getVolatile(this) != null) {
            helpPendingSwap();
        }
    }

    /** Caller owns {@code held}, which is {@code current}: installs the pending primitive, if any. */
    private void swapWhileOwning(LockPrimitive held) {
        if (PENDING.getVolatile(this) == null) {
            return;
        }
        LockPrimitive next = (LockPrimitive) PENDING.getAndSet(this, (LockPrimitive) null);
        if (next != null && next != held) {
            swaps++;
            retiredSpins += held.spins();
            retiredParks += held.parks();
            retiredHandoffs += held.handoffs();
            currentBarging = next instanceof BargingMutex b ? b : null;
            current = next;
        }
    }

    /** Performs a pending swap if the lock is free now; otherwise leaves it to the thread that owns the primitive. */
    private void helpPendingSwap() {
        ReleaseStoreRetries retries = null;
        while (PENDING.getVolatile(this) != null) {
            LockPrimitive p = current;
            if (!p.tryLock()) {
                if (p.releasesByStore()) { // a release store in flight may have missed us (notes, 4)
                    if (retries == null) {
                        retries = new ReleaseStoreRetries();
                    }
                    if (retries.another()) {
                        continue;
                    }
                }
                return; // its owner re-checks pending after releasing it
            }
            if (p == current) {
                swapWhileOwning(p);
            }
            p.unlock();
        }
    }

    // The four calls into a primitive on the acquisition and release paths. An AqsMutex (final) and a BargingMutex
    // (whose fast paths are final) are called directly: a class test, then inlined code, whatever other primitive
    // classes this code has seen, so `jdk`, `fallback` and `adaptive` never pay an interface dispatch.

    private static boolean tryLock(LockPrimitive p) {
        if (p instanceof AqsMutex m) {
            return m.tryLock();
        }
        return p instanceof BargingMutex b ? b.tryLock() : p.tryLock();
    }

    private static void lock(LockPrimitive p) {
        if (p instanceof AqsMutex m) {
            m.lock();
        } else if (p instanceof BargingMutex b) {
            b.lock();
        } else {
            p.lock();
        }
    }

    private static void lockInterruptibly(LockPrimitive p) throws InterruptedException {
        if (p instanceof AqsMutex m) {
            m.lockInterruptibly();
        } else if (p instanceof BargingMutex b) {
            b.lockInterruptibly();
        } else {
            p.lockInterruptibly();
        }
    }

    private static void unlock(LockPrimitive p) {
        if (p instanceof AqsMutex m) {
            m.unlock();
        } else if (p instanceof BargingMutex b) {
            b.unlock();
        } else {
            p.unlock();
        }
    }

    private void checkHeld() {
        if (ownerId != Thread.currentThread().getId()) {
            throw new IllegalMonitorStateException("Lock '" + name + "' is not held by the current thread");
        }
    }

    /** What the facade's conditions need of it: checks, full release and reacquisition by the holder. */
    private final FacadeCondition.Host conditionHost = new FacadeCondition.Host() {
        @Override
        public void checkHeld() {
            LockFacade.this.checkHeld();
        }

        @Override
        public int releaseFully() {
            return LockFacade.this.releaseFully();
        }

        @Override
        public void reacquire(int saved) {
            acquireUninterruptibly(Thread.currentThread());
            reentries = saved - 1;
        }
    };

    /** Releases every hold of the calling holder; returns the hold count to restore. */
    private int releaseFully() {
        int saved = reentries + 1;
        reentries = 0;
        endHold();
        ownerId = 0L;
        release();
        return saved;
    }
}
