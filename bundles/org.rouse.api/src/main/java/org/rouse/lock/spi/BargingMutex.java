package org.rouse.lock.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The fast paths of a barging mutex over one lock word, final here so that the front's facades inline them; the
 * engine's subclass supplies what happens when the word is not simply free or simply held. Bit {@link #LOCKED} of the
 * word means held; the other bits are the subclass's (for example "threads are parked"). Any thread that reads
 * {@code LOCKED} clear may take the lock by setting it (barging), whatever the other bits say.
 *
 * <ul>
 *   <li>{@link #lock()}, {@link #lockInterruptibly()}: read the word; if {@code LOCKED} is clear, CAS it in keeping
 *       the other bits; otherwise, or if the CAS fails, call {@link #lockContended()} or
 *       {@link #lockInterruptiblyContended()}.
 *   <li>{@link #tryLock()}: the same CAS, retried while {@code LOCKED} reads clear (a change of another bit never
 *       fails it).
 *   <li>{@link #unlock()}: while the subclass has not said that threads queue ({@link #setQueued(boolean)}), store
 *       0 (a volatile store, as {@code ReentrantLock}'s release does, or, for a subclass constructed with
 *       {@link #BargingMutex(boolean) a release store}, one without a fence), then, if it says so now, call
 *       {@link #releasedWhileQueued()}: the store may have overwritten a bit a queueing thread set meanwhile.
 *       Otherwise call {@link #unlockContended()}, which must free the lock (and typically wakes a waiter).
 * </ul>
 *
 * <p>The subclass's part of that bargain: a thread that is going to wait calls {@code setQueued(true)} before it sets
 * its bit in the word, and {@code setQueued(false)} is called only once nobody waits any more. A bit besides
 * {@code LOCKED} that is set while {@code queued} is not may be cleared by any release. A subclass that chooses the
 * release store also recovers a waiter that such a release missed (see {@link #BargingMutex(boolean)}).
 *
 * <pre>{@code
 * final class SpinThenParkMutex extends BargingMutex {
 *     static final int PARKED = 2;
 *
 *     protected void lockContended() {
 *         // spin, then set PARKED with compareAndSetState and park until woken; retry the CAS of LOCKED
 *     }
 *
 *     protected void unlockContended() {
 *         // threads may be queued: clear LOCKED (getAndAddState(-LOCKED)), wake a parked thread if any
 *     }
 *
 *     protected void releasedWhileQueued() {
 *         // the lock is free (or barged into) and PARKED may be lost: set it again, wake a parked thread if free
 *     }
 *     // lockInterruptiblyContended, tryLockNanos, strategy
 * }
 * }</pre>
 *
 * @since 1.7
 */
public abstract class BargingMutex implements LockPrimitive {

    /*
     * Implementation notes.
     *
     * Why a class. The facades call their primitive on every acquisition and release. Through the LockPrimitive
     * interface that call is an inlined guess at the receiver's class while one or two classes have passed a call site,
     * and an itable search once three have (several strategies in one JVM). Measured with JMH LockStrategyCosts on a
     * 2-core EPYC: `adaptive` through the interface 7.9 ns (one class) and 9.3 ns (four) against a ReentrantLock's 5.2
     * ns, where the facade adds ~0.2 ns to a final AqsMutex (docs/performance.md). With the fast paths final in this
     * class, the facade's `p instanceof BargingMutex` (a fixed-depth superclass check) leads to code it inlines
     * whatever the subclass.
     *
     * The word. `state`: volatile; the fast paths CAS it; the subclass reads and writes it through the protected
     * accessors under its own rules. The word is read before each CAS because a CAS that fails (the word has other
     * bits set under contention) costs what a successful one does.
     *
     * The release (the default, volatile store). A CAS of LOCKED -> 0 would never lose another bit, but a CAS waits for
     * the store buffer to drain before it can even read the word, and the facade's own stores are in it: with a CAS
     * release `adaptive` through the facade took 7.5 ns per lock + unlock, with the store 6.2 ns, where ReentrantLock
     * (whose release is a volatile store) takes 5.2 ns (JMH LockStrategyCosts on a 2-core EPYC, docs/performance.md).
     * So the release is a store, and a bit that a waiter CASes in between the releaser's first read of `queued` (clear)
     * and its store is lost. The releaser then catches it Dekker-style, as AQS's release does with its queue head: the
     * waiter writes `queued` (volatile) before its CAS; the releaser stores the word (volatile) and then reads `queued`
     * again. In the total order of volatile accesses either the releaser's second read comes after the waiter's write,
     * so it sees `queued` and hands the repair to the subclass, or the waiter's write, and so its CAS, come after the
     * releaser's store, and the CAS sees the free word (and the waiter takes the lock instead of waiting) or a later
     * holder's word (whose release faces the same choice). A releaser that finds `queued` set although nothing was lost
     * only costs a call.
     *
     * Which release. The fast release is chosen by reading `queued`, not the word: every bit besides LOCKED is set
     * only while `queued` is (the subclass's bargain), so `queued` clear means the word is LOCKED alone or holds stale
     * bits nobody needs. Reading the word itself, which the acquisition's CAS has just written, before storing it
     * cost about 0.4 ns of a 4.8 ns raw lock + unlock; with `queued` read instead the primitive costs what
     * ReentrantLock does (JMH LockPrimitiveCosts, 2-core EPYC: 4.40 ns against 4.59 ns in the same run;
     * docs/performance.md).
     *
     * The release store (opt-in, SPI 1.9). A volatile store is followed by a StoreLoad fence (on x86 a locked
     * instruction), which waits until the store buffer has drained, including the critical section's own stores to
     * lines that may have moved to the other core. With `releaseStore` the fast release is a release store instead
     * (StoreStore and LoadStore: the critical section still happens before it, so mutual exclusion, which rests on
     * the acquisitions' CAS of LOCKED from a word without it, is unchanged). For `adaptive` that cut 40 % off an
     * uncontended lock + unlock and, at two threads with work between acquisitions, took it from 0.64-0.83x to
     * 0.87-1.20x of `synchronized` (docs/performance.md, "Locks: a release without a fence"). The price: the second
     * read of `queued` may now be satisfied before the store is visible, so in the window of a store-buffer drain a
     * waiter that sets `queued` and CASes its bit into the still held word is missed: the store overwrites the bit
     * and nobody is woken ("stranding", as HotSpot's ObjectMonitor calls the same race). Such a waiter waits only
     * until (1) the next release by any thread, which acquired by a CAS after the store landed and so reads `queued`
     * set and takes the slow path, or (2) its own re-check: the subclass parks waiters with a timeout and, when one
     * ends with the waiter still queued and the lock free, wakes one (as ObjectMonitor's "responsible" thread does).
     * The same window lets a facade's swap request and a release miss each other (releasesByStore()).
     *
     * `queued`: volatile; written only by the subclass (under whatever guards its queue of waiters), read by every
     * release before it chooses its path and by every fast release again after its store.
     */

    /** The bit of the lock word that means "held". The other bits belong to the subclass. */
    public static final int LOCKED = 1;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(BargingMutex.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The lock word; CAS by the fast acquisitions and the subclass, volatile or release stores by releasers. */
    private volatile int state;
    /** Nonzero while the subclass may have threads waiting; written by the subclass before it sets a bit saying so. */
    private volatile int queued;
    /** Whether the fast release is a release store without a StoreLoad fence (see notes); fixed at construction. */
    private final boolean releaseStore;

    /** Creates a free mutex (word 0) whose fast release is a volatile store. */
    protected BargingMutex() {
        this(false);
    }

    /**
     * Creates a free mutex (word 0), choosing the fast release.
     *
     * @param releaseStore {@code true} for a release store without a StoreLoad fence, which costs the releaser less
     *     but may miss a thread that queued at the same moment: it is then woken by the next release of any thread,
     *     and the subclass must also park its waiters with a timeout and, when one ends with the waiter still queued
     *     and the lock free, wake one ({@link #releasedWhileQueued()} does what is needed); {@code false} for a
     *     volatile store, which never misses one
     * @since 1.9
     */
    protected BargingMutex(boolean releaseStore) {
        this.releaseStore = releaseStore;
    }

    @Override
    public final void lock() {
        int s = state;
        if ((s & LOCKED) != 0 || !STATE.compareAndSet(this, s, s | LOCKED)) {
            lockContended();
        }
    }

    @Override
    public final void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int s = state;
        if ((s & LOCKED) != 0 || !STATE.compareAndSet(this, s, s | LOCKED)) {
            lockInterruptiblyContended();
        }
    }

    @Override
    public final boolean tryLock() {
        for (; ; ) {
            int s = state;
            if ((s & LOCKED) != 0) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s | LOCKED)) {
                return true;
            }
        }
    }

    @Override
    public final void unlock() {
        if (queued == 0) {
            // a waiter may have CASed in a bit since the read: `queued` read again tells (see notes)
            if (releaseStore) {
                STATE.setRelease(this, 0);
            } else {
                state = 0;
            }
            if (queued != 0) {
                releasedWhileQueued();
            }
        } else {
            unlockContended();
        }
    }

    @Override
    public final boolean isLocked() {
        return (state & LOCKED) != 0;
    }

    /** Whether this mutex was constructed with the release store ({@link #BargingMutex(boolean)}). */
    @Override
    public final boolean releasesByStore() {
        return releaseStore;
    }

    /**
     * Acquires after the fast path found the lock held, or lost its CAS; returns holding the lock. Ignores
     * interrupts, but preserves the interrupt status.
     */
    protected abstract void lockContended();

    /**
     * Acquires after the fast path found the lock held, or lost its CAS; returns holding the lock.
     *
     * @throws InterruptedException if interrupted while waiting (the caller then does not hold the lock)
     */
    protected abstract void lockInterruptiblyContended() throws InterruptedException;

    /**
     * Releases while {@link #setQueued(boolean) queued} is set, whatever the word holds besides {@link #LOCKED} (a
     * waiter may not have set its bit yet, or nobody may wait any more); must leave the lock free, or handed to a
     * waiter, before it returns.
     */
    protected abstract void unlockContended();

    /**
     * Called by {@link #unlock()} after it freed the lock with a store ({@code queued} read clear) and then found
     * {@link #setQueued(boolean) queued} set: the lock is free now, or already taken by a barger, and a bit a
     * waiter set between the read and the store may be gone. Must restore what the waiters need (typically set its
     * "parked" bit again and wake one if the lock is still free).
     */
    protected abstract void releasedWhileQueued();

    /**
     * Says whether threads may be waiting: {@code true} before a thread that is going to wait sets its bit in the
     * word, {@code false} only once none waits (a volatile store). While it is {@code true}, every release calls
     * {@link #unlockContended()}; a release by a store that finds it turned {@code true} calls
     * {@link #releasedWhileQueued()}.
     */
    protected final void setQueued(boolean waiting) {
        queued = waiting ? 1 : 0;
    }

    /** The lock word (a volatile read). */
    protected final int state() {
        return state;
    }

    /** Writes the lock word (a volatile store); only for a subclass whose rules make the word its own then. */
    protected final void setState(int word) {
        state = word;
    }

    /** CAS of the lock word (volatile semantics). */
    protected final boolean compareAndSetState(int expected, int word) {
        return STATE.compareAndSet(this, expected, word);
    }

    /** Atomic add to the lock word (volatile semantics); returns the word before. */
    protected final int getAndAddState(int delta) {
        return (int) STATE.getAndAdd(this, delta);
    }
}
