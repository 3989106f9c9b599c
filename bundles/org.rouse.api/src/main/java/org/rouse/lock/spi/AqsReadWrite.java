package org.rouse.lock.spi;

import java.util.Objects;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The JDK's {@link AbstractQueuedSynchronizer} as a non-reentrant, non-fair read-write lock: the read side acquired
 * and released as the read lock of a non-fair {@link ReentrantReadWriteLock} is (one CAS on the state while no writer
 * holds the lock or waits at the head of the queue; otherwise the same AQS queue, park and shared wake-up), the write
 * side as its write lock (one CAS when free; barging, then the same queue), without the owner thread and the
 * per-thread read hold counts a {@code ReentrantReadWriteLock} keeps, which the front's facade keeps already.
 *
 * <p>The exclusive methods of {@link LockPrimitive} are the write side, the {@code Shared} methods of
 * {@link ReadWritePrimitive} the read side. Contract of the read side, beside the interface's: a reader is refused
 * while a writer holds the lock, and, while a writer waits at the head of the queue, unless no other thread is queued
 * ahead of it; so overlapping readers cannot keep a waiting writer out, and {@link #tryLockShared()} fails then
 * without waiting. Write acquisitions barge, as a non-fair {@code ReentrantReadWriteLock}'s do.
 *
 * <p>The front's read-write facade recognises this class and calls it directly rather than through the
 * {@link ReadWritePrimitive} interface, so its acquisitions stay inlined however many other primitive classes the same
 * facade code calls. An engine that offers the JDK's read-write lock as a strategy hands out instances of it:
 *
 * <pre>{@code
 * public ReadWritePrimitive newReadWritePrimitive(String strategy) {
 *     return "jdk".equals(strategy) ? new AqsReadWrite("jdk") : ...;
 * }
 * }</pre>
 *
 * @since 1.5
 */
public final class AqsReadWrite implements ReadWritePrimitive {

    /*
     * Implementation notes.
     *
     * Sources. ReentrantReadWriteLock's non-fair Sync (JDK 17): a reader enters by CAS of the shared count unless a
     * writer holds the lock or readerShouldBlock() (apparentlyFirstQueuedIsExclusive: the first queued thread is a
     * writer); a writer by CAS from 0; a write release, and a read release that leaves the lock free, end in
     * AbstractQueuedSynchronizer's signalNext; a reader at the head of the queue that gets in wakes the next one if
     * it is a reader too (AQS's signalNextIfShared).
     *
     * Layout of the AQS state (int):
     *   bit 0        WRITER: a writer holds the lock.
     *   bit 1        WRITER_FIRST: a writer at the head of the AQS queue found the lock held and waits.
     *   bits 2..31   readers holding the lock (unsigned).
     *
     * Reader rule. apparentlyFirstQueuedIsExclusive is package-private in java.util.concurrent.locks, so the writer
     * at the head of the queue says so itself: AQS tries a queued thread's acquisition only while it is first in the
     * queue, and a writer whose attempt fails while getFirstQueuedThread() is itself sets WRITER_FIRST in the same
     * CAS that confirms the lock is held. A reader is refused while WRITER is set, and while WRITER_FIRST is set and
     * hasQueuedPredecessors() (another thread is queued ahead of it). While WRITER_FIRST is clear the read path reads
     * nothing but the state. WRITER_FIRST is cleared by the CAS with which the writer at the head of the queue takes
     * the lock (a barging writer leaves it for the queued one), and by a writer that gives up (timeout, interrupt),
     * which cannot tell whether it set the flag: a writer still first sets it again at its next failed attempt.
     *
     * Invariants.
     * 1. WRITER set implies no readers, and readers > 0 implies WRITER clear: a writer enters only by CAS from a
     *    state without either, a reader only by CAS from a state without WRITER; a downgrade turns WRITER into one
     *    reader in one CAS.
     * 2. No deadlock between the reader rule and the queue: the thread at the head of the queue has no queued
     *    predecessor, so a reader there is refused only while WRITER is set, and the write release wakes it (AQS's
     *    release calls signalNext). A writer there is refused only while someone holds the lock, and the last
     *    release (a write release, or a read release to zero readers) wakes it. Threads queued behind it are woken in
     *    turn. This holds whatever WRITER_FIRST says, so a stale flag costs readers only some barging, never
     *    liveness.
     * 3. Every release (write, read, downgrade) is a CAS on the state, the release ordering the facade's swap
     *    protocol relies on. The facade never enters a mode twice from one thread and releases only what the thread
     *    holds (the ReadWritePrimitive contract), so no owner or hold count is recorded or checked.
     *
     * Costs. An uncontended read acquisition is one volatile read and one CAS of the state, its release one CAS (plus
     * AQS's read of its queue head when it leaves the lock free); no ThreadLocal, no per-thread record. Write
     * acquisitions cost what AqsMutex's do, the release a CAS instead of a store (WRITER_FIRST may change under a
     * held write lock). A failed write attempt also walks to the head of the queue (getFirstQueuedThread). The
     * class is final so that the facade's type test is one class-pointer comparison.
     */

    private static final int WRITER = 1;
    private static final int WRITER_FIRST = 1 << 1;
    private static final int READER_SHIFT = 2;
    private static final int READER_UNIT = 1 << READER_SHIFT;
    private static final int MAX_READERS = -1 >>> READER_SHIFT;

    /** Shared release argument: one reader leaves. */
    private static final int ARG_READ = 1;
    /** Shared release argument: the writer becomes one reader. */
    private static final int ARG_DOWNGRADE = 2;

    private final String strategy;
    /** The AQS; its state is written only by CAS, by acquiring, releasing and waiting threads. */
    private final Sync sync = new Sync();

    /**
     * Creates a free read-write lock.
     *
     * @param strategy the strategy name it reports, e.g. {@code "jdk"}
     */
    public AqsReadWrite(String strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
    }

    @Override
    public String strategy() {
        return strategy;
    }

    // ------------------------------------------------------------------------------------ write side

    @Override
    public void lock() {
        sync.acquire(1);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (sync.tryAcquire(1)) {
            return;
        }
        try {
            sync.acquireInterruptibly(1);
        } catch (InterruptedException e) {
            sync.clearWriterFirst(); // it may have waited at the head of the queue
            throw e;
        }
    }

    @Override
    public boolean tryLock() {
        return sync.tryAcquire(1);
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (sync.tryAcquire(1)) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        boolean acquired = false;
        try {
            acquired = sync.tryAcquireNanos(1, nanos);
            return acquired;
        } finally {
            if (!acquired) {
                sync.clearWriterFirst(); // it may have waited at the head of the queue
            }
        }
    }

    @Override
    public void unlock() {
        sync.release(1);
    }

    // ------------------------------------------------------------------------------------- read side

    @Override
    public void lockShared() {
        sync.acquireShared(ARG_READ);
    }

    @Override
    public void lockSharedInterruptibly() throws InterruptedException {
        sync.acquireSharedInterruptibly(ARG_READ);
    }

    /** Fails while a writer holds the lock, and while a writer waits at the head of the queue. */
    @Override
    public boolean tryLockShared() {
        return sync.tryAcquireShared(ARG_READ) >= 0;
    }

    @Override
    public boolean tryLockSharedNanos(long nanos) throws InterruptedException {
        return sync.tryAcquireSharedNanos(ARG_READ, nanos);
    }

    @Override
    public void unlockShared() {
        sync.releaseShared(ARG_READ);
    }

    /** Turns the caller's write hold into one read hold in one CAS, and wakes a reader queued first. */
    @Override
    public void downgrade() {
        sync.releaseShared(ARG_DOWNGRADE);
    }

    // ------------------------------------------------------------------------------------- snapshots

    @Override
    public boolean isWriteLocked() {
        return (sync.state() & WRITER) != 0;
    }

    @Override
    public boolean isLocked() {
        return (sync.state() & ~WRITER_FIRST) != 0;
    }

    /**
     * Whether a writer waits at the head of the queue now (a snapshot): while it does, readers do not overtake the
     * threads queued ahead of them.
     *
     * @return true if a writer at the head of the queue has found the lock held and waits
     */
    public boolean isWriterFirstInQueue() {
        return (sync.state() & WRITER_FIRST) != 0;
    }

    @Override
    public String toString() {
        int s = sync.state();
        return "AqsReadWrite[" + strategy + ", "
                + ((s & WRITER) != 0 ? "write-locked" : (s >>> READER_SHIFT) + " readers")
                + ((s & WRITER_FIRST) != 0 ? ", a writer first in the queue]" : "]");
    }

    /** The state word of the class notes; every change by CAS. */
    private static final class Sync extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;

        int state() {
            return getState();
        }

        /** After a write acquisition gave up: clears WRITER_FIRST, which the caller may have set. */
        void clearWriterFirst() {
            for (; ; ) {
                int c = getState();
                if ((c & WRITER_FIRST) == 0 || compareAndSetState(c, c & ~WRITER_FIRST)) {
                    return;
                }
            }
        }

        @Override
        protected boolean tryAcquire(int ignored) {
            int first = 0; // 0 unknown, 1 the caller is first in the queue, -1 it is not
            for (; ; ) {
                int c = getState();
                if ((c & ~WRITER_FIRST) == 0) {
                    int next = c | WRITER;
                    if ((c & WRITER_FIRST) != 0) {
                        if (first == 0) {
                            first = getFirstQueuedThread() == Thread.currentThread() ? 1 : -1;
                        }
                        if (first > 0) {
                            next = WRITER; // the waiting writer at the head gets in: readers may barge again later
                        }
                    }
                    if (compareAndSetState(c, next)) {
                        return true;
                    }
                    continue;
                }
                if ((c & WRITER_FIRST) != 0) {
                    return false;
                }
                if (first == 0) {
                    first = getFirstQueuedThread() == Thread.currentThread() ? 1 : -1;
                }
                if (first < 0 || compareAndSetState(c, c | WRITER_FIRST)) {
                    return false; // held; if first in the queue, new readers now queue behind the caller
                }
            }
        }

        @Override
        protected boolean tryRelease(int ignored) {
            for (; ; ) {
                int c = getState();
                if (compareAndSetState(c, c & ~WRITER)) {
                    return true;
                }
            }
        }

        @Override
        protected int tryAcquireShared(int ignored) {
            for (; ; ) {
                int c = getState();
                if ((c & WRITER) != 0) {
                    return -1;
                }
                if ((c & WRITER_FIRST) != 0 && hasQueuedPredecessors()) {
                    return -1; // a writer waits at the head of the queue: no overtaking it
                }
                if ((c >>> READER_SHIFT) == MAX_READERS) {
                    throw new Error("Maximum lock count exceeded");
                }
                if (compareAndSetState(c, c + READER_UNIT)) {
                    return 1;
                }
            }
        }

        @Override
        protected boolean tryReleaseShared(int arg) {
            for (; ; ) {
                int c = getState();
                int next = arg == ARG_DOWNGRADE ? (c & ~WRITER) + READER_UNIT : c - READER_UNIT;
                if (compareAndSetState(c, next)) {
                    // a downgrade admits readers; a last reader out admits a writer
                    return arg == ARG_DOWNGRADE || (next >>> READER_SHIFT) == 0;
                }
            }
        }
    }
}
