package org.rouse.lock.spi;

import java.util.Objects;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The JDK's {@link AbstractQueuedSynchronizer} as a non-reentrant, non-fair read-write lock: the read side acquired
 * and released as the read lock of a non-fair {@link ReentrantReadWriteLock} is (one CAS on the state while no writer
 * holds or waits, the same AQS queue, park and shared wake-up otherwise), the write side as its write lock (one CAS
 * when free; barging, then the same queue), without the owner thread and the per-thread read hold counts a
 * {@code ReentrantReadWriteLock} keeps, which the front's facade keeps already.
 *
 * <p>The exclusive methods of {@link LockPrimitive} are the write side, the {@code Shared} methods of
 * {@link ReadWritePrimitive} the read side. Contract of the read side, beside the interface's: while a writer waits
 * for the lock, a reader is admitted only if no thread is queued ahead of it, so a stream of overlapping readers
 * cannot keep a waiting writer out, and {@link #tryLockShared()} fails then without waiting; while no writer waits,
 * readers enter as long as no writer holds the lock. Write acquisitions barge, as a non-fair
 * {@code ReentrantReadWriteLock}'s do.
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
     * writer); a writer by CAS from 0; a write release ends in a volatile store and AbstractQueuedSynchronizer's
     * signalNext, a read release that leaves the lock free likewise; a woken reader at the head of the queue wakes
     * the next one if it is a reader too (AQS's signalNextIfShared).
     *
     * Layout of the AQS state (int):
     *   bit 0        WRITER: a writer holds the lock.
     *   bits 1..15   waiting writers: writers between counting themselves in (after their barging attempt failed)
     *                and acquiring or giving up; they may be queued, or about to be.
     *   bits 16..31  readers holding the lock (unsigned).
     *
     * Reader policy. apparentlyFirstQueuedIsExclusive is package-private in java.util.concurrent.locks, so the rule
     * is built from public AQS methods instead: a reader is refused while WRITER is set, and, only while the
     * waiting-writers count is non-zero, also while hasQueuedPredecessors() (some other thread is queued ahead of
     * it). With no writer waiting the read path reads nothing but the state. The rule refuses readers in every case
     * ReentrantReadWriteLock does (a writer first in the queue is counted as waiting) and in one more: a reader that is
     * not queued while a writer waits behind queued readers queues too, where ReentrantReadWriteLock's barges.
     *
     * Invariants.
     * 1. WRITER set implies no readers, and readers > 0 implies WRITER clear: both are entered only by CAS from a
     *    state that shows neither (a writer) or no WRITER (a reader); a downgrade turns WRITER into one reader in one
     *    CAS.
     * 2. No deadlock between the reader rule and the queue: the thread at the head of the AQS queue has no queued
     *    predecessor, so a reader there is refused only while WRITER is set, and the writer's release wakes it
     *    (AQS's release calls signalNext). A writer there is refused only while someone holds the lock, and the last
     *    release (a write release, or a read release to zero readers) wakes it. Readers refused behind it are queued
     *    behind it and are woken in turn.
     * 3. Every waiting-writer count is taken back exactly once: by the CAS that acquires with ARG_COUNTED, or by the
     *    writer after an acquisition that gave up (timeout, interrupt, or an Error thrown out of the AQS).
     * 4. Every release (write, read, downgrade) is a CAS on the state, the release ordering the facade's swap
     *    protocol relies on. The facade never enters a mode twice from one thread and releases only what the thread
     *    holds (the ReadWritePrimitive contract), so no owner or hold count is recorded or checked.
     *
     * Costs. An uncontended read acquisition is one volatile read and one CAS of the state, its release one CAS (plus
     * AQS's read of its queue head when it leaves the lock free); no ThreadLocal, no per-thread record. Write
     * acquisitions cost what AqsMutex's do, the release a CAS instead of a store (the waiting-writers count changes
     * under a held write lock). The class is final so that the facade's type test is one class-pointer comparison.
     */

    private static final int WRITER = 1;
    private static final int WAITING_WRITER_UNIT = 1 << 1;
    private static final int WAITING_WRITERS_MASK = 0x7FFF << 1;
    private static final int MAX_WAITING_WRITERS = 0x7FFF;
    private static final int READER_SHIFT = 16;
    private static final int READER_UNIT = 1 << READER_SHIFT;
    private static final int MAX_READERS = 0xFFFF;

    /** Exclusive argument: an attempt by a writer that has not counted itself as waiting. */
    private static final int ARG_BARGING = 1;
    /** Exclusive argument: an attempt by a writer counted as waiting; success takes the count back. */
    private static final int ARG_COUNTED = 2;
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
        if (!sync.tryAcquire(ARG_BARGING)) {
            sync.countWaitingWriter();
            boolean acquired = false;
            try {
                sync.acquire(ARG_COUNTED);
                acquired = true;
            } finally {
                if (!acquired) {
                    sync.uncountWaitingWriter();
                }
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!sync.tryAcquire(ARG_BARGING)) {
            sync.countWaitingWriter();
            boolean acquired = false;
            try {
                sync.acquireInterruptibly(ARG_COUNTED);
                acquired = true;
            } finally {
                if (!acquired) {
                    sync.uncountWaitingWriter();
                }
            }
        }
    }

    @Override
    public boolean tryLock() {
        return sync.tryAcquire(ARG_BARGING);
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (sync.tryAcquire(ARG_BARGING)) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        sync.countWaitingWriter();
        boolean acquired = false;
        try {
            acquired = sync.tryAcquireNanos(ARG_COUNTED, nanos);
            return acquired;
        } finally {
            if (!acquired) {
                sync.uncountWaitingWriter();
            }
        }
    }

    @Override
    public void unlock() {
        sync.release(ARG_BARGING);
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

    /** Fails while a writer holds the lock, and while a writer waits and another thread is queued ahead. */
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
        return (sync.state() & ~WAITING_WRITERS_MASK) != 0;
    }

    /**
     * Writers waiting for the lock now (a snapshot): those whose first attempt failed and that have neither acquired
     * it nor given up yet. While it is non-zero, readers do not overtake threads queued ahead of them.
     *
     * @return the number of waiting writers
     */
    public int waitingWriters() {
        return (sync.state() & WAITING_WRITERS_MASK) >>> 1;
    }

    @Override
    public String toString() {
        int s = sync.state();
        return "AqsReadWrite[" + strategy + ", "
                + ((s & WRITER) != 0 ? "write-locked" : (s >>> READER_SHIFT) + " readers") + ", "
                + ((s & WAITING_WRITERS_MASK) >>> 1) + " writers waiting]";
    }

    /** The state word of the class notes; every change by CAS. */
    private static final class Sync extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;

        int state() {
            return getState();
        }

        void countWaitingWriter() {
            for (; ; ) {
                int c = getState();
                if (((c & WAITING_WRITERS_MASK) >>> 1) == MAX_WAITING_WRITERS) {
                    throw new Error("Maximum waiting writers exceeded");
                }
                if (compareAndSetState(c, c + WAITING_WRITER_UNIT)) {
                    return;
                }
            }
        }

        void uncountWaitingWriter() {
            for (; ; ) {
                int c = getState();
                if (compareAndSetState(c, c - WAITING_WRITER_UNIT)) {
                    return;
                }
            }
        }

        @Override
        protected boolean tryAcquire(int arg) {
            for (; ; ) {
                int c = getState();
                if ((c & ~WAITING_WRITERS_MASK) != 0) {
                    return false; // held, in either mode
                }
                int next = arg == ARG_COUNTED ? (c - WAITING_WRITER_UNIT) | WRITER : c | WRITER;
                if (compareAndSetState(c, next)) {
                    return true;
                }
                // only the waiting-writers count changed, or another thread got it: look again
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
                if ((c & WAITING_WRITERS_MASK) != 0 && hasQueuedPredecessors()) {
                    return -1; // a writer waits: no overtaking the threads queued ahead
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
