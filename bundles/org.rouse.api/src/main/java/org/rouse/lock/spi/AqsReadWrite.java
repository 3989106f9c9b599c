package org.rouse.lock.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * while a writer holds the lock, and, while a writer waits for it, unless no other thread is queued ahead of the
 * reader; so overlapping readers cannot keep a waiting writer out, and {@link #tryLockShared()} fails then without
 * waiting. Write acquisitions barge, as a non-fair {@code ReentrantReadWriteLock}'s do.
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
     *   bits 1..31   readers holding the lock (unsigned).
     * Beside it, `waitingWriters`: write acquisitions that wait or are about to, and `waitingWriterThreads`, their
     * threads (see the reader rule).
     *
     * Reader rule: ReentrantReadWriteLock's. A reader is refused while WRITER is set, and while the first queued
     * thread is a waiting writer. AQS tells the first queued thread (getFirstQueuedThread) but not its mode
     * (apparentlyFirstQueuedIsExclusive is package-private in java.util.concurrent.locks), so the writers say
     * themselves that they wait: a write acquisition that will wait (lock, lockInterruptibly, tryLockNanos after a
     * failed first attempt) adds its thread to `waitingWriterThreads` and then counts itself in `waitingWriters`
     * before it enters the AQS queue, and undoes both when it returns, acquired, timed out or interrupted. A thread
     * waits for one lock at a time, so a queued thread in that set is queued as a writer. While no writer waits, the
     * read path reads nothing but the state and the count; while one does, it also reads the queue's first thread and
     * looks it up in the set. History: a flag the writer set in the state once it found itself first in the queue
     * missed a writer queued behind a reader, which became first while parked; overlapping readers then kept it out
     * for good (ReadWriteConformanceTest's starving writer). The rule that replaced it, readers queue behind any
     * queued thread while a writer waits, cost 0.46x ReentrantReadWriteLock's throughput read-mostly at 16 threads:
     * new readers parked behind queued readers, 25 times the context switches (docs/performance.md, 2026-12-02).
     *
     * Invariants.
     * 1. WRITER set implies no readers, and readers > 0 implies WRITER clear: a writer enters only by CAS from a
     *    state without either, a reader only by CAS from a state without WRITER; a downgrade turns WRITER into one
     *    reader in one CAS.
     * 2. No deadlock between the reader rule and the queue: the thread at the head of the queue has no queued
     *    predecessor, so a reader there is refused only while WRITER is set, and the write release wakes it (AQS's
     *    release calls signalNext). A writer there is refused only while someone holds the lock, and the last
     *    release (a write release, or a read release to zero readers) wakes it. Threads queued behind it are woken in
     *    turn. This holds whatever `waitingWriters` says.
     * 4. No starvation of a writer by overlapping readers: once the writer is the first queued thread, every reader
     *    that is not yet queued queues too, the readers inside drain and the last one's release wakes the writer.
     *    Threads queued ahead of it get in in turn: a writer when the lock is free, the readers at the head when the
     *    holding writer leaves (a reader that gets in from the head wakes a reader queued next to it), after which
     *    the writer is first.
     * 3. Every release (write, read, downgrade) is a CAS on the state, the release ordering the facade's swap
     *    protocol relies on. The facade never enters a mode twice from one thread and releases only what the thread
     *    holds (the ReadWritePrimitive contract), so no owner or hold count is recorded or checked.
     *
     * Costs. An uncontended read acquisition is one volatile read and one CAS of the state, its release one CAS (plus
     * AQS's read of its queue head when it leaves the lock free), and one volatile read of `waitingWriters`; no
     * ThreadLocal, no per-thread record. Write acquisitions cost what AqsMutex's do, plus, when they wait, two atomic
     * adds to `waitingWriters` and an insertion into and a removal from `waitingWriterThreads`. The class is final so that the facade's type test is one class-pointer
     * comparison.
     */

    private static final int WRITER = 1;
    private static final int READER_SHIFT = 1;
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
        if (sync.tryAcquire(1)) {
            return;
        }
        sync.writerStartsWaiting();
        try {
            sync.acquire(1);
        } finally {
            sync.writerStopsWaiting();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (sync.tryAcquire(1)) {
            return;
        }
        sync.writerStartsWaiting();
        try {
            sync.acquireInterruptibly(1);
        } finally {
            sync.writerStopsWaiting();
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
        sync.writerStartsWaiting();
        try {
            return sync.tryAcquireNanos(1, nanos);
        } finally {
            sync.writerStopsWaiting();
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

    /** Fails while a writer holds the lock, and while a waiting writer is the first queued thread. */
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
        return sync.state() != 0;
    }

    /**
     * Whether a writer waits for the lock now (a snapshot).
     *
     * @return true if a write acquisition waits for the lock or is about to
     * @since 1.6
     */
    public boolean hasWaitingWriter() {
        return sync.waitingWriters() != 0;
    }

    /**
     * Whether the first thread in the lock's queue is a waiting writer now (a snapshot): while one is, new readers
     * queue behind it.
     *
     * @return true if a write acquisition is the first queued thread
     */
    public boolean isWriterFirstInQueue() {
        return sync.writerFirstInQueue();
    }

    @Override
    public String toString() {
        int s = sync.state();
        return "AqsReadWrite[" + strategy + ", "
                + ((s & WRITER) != 0 ? "write-locked" : (s >>> READER_SHIFT) + " readers")
                + (sync.waitingWriters() != 0 ? ", a writer waiting]" : "]");
    }

    /** The state word of the class notes; every change by CAS. */
    private static final class Sync extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;

        private static final VarHandle WAITING_WRITERS;

        static {
            try {
                WAITING_WRITERS = MethodHandles.lookup().findVarHandle(Sync.class, "waitingWriters", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Write acquisitions that wait or are about to; atomic adds by the writers, read by readers. */
        private volatile int waitingWriters;

        /**
         * The threads counted in {@link #waitingWriters}: each adds itself before it counts itself and enters the
         * queue, and removes itself after it leaves the count; readers look up the first queued thread in it.
         */
        private final Set<Thread> waitingWriterThreads = ConcurrentHashMap.newKeySet();

        int state() {
            return getState();
        }

        int waitingWriters() {
            return waitingWriters;
        }

        /** The calling thread's write acquisition is about to wait. */
        void writerStartsWaiting() {
            waitingWriterThreads.add(Thread.currentThread());
            WAITING_WRITERS.getAndAdd(this, 1);
        }

        /** The calling thread's write acquisition has stopped waiting: acquired, timed out or interrupted. */
        void writerStopsWaiting() {
            WAITING_WRITERS.getAndAdd(this, -1);
            waitingWriterThreads.remove(Thread.currentThread());
        }

        /** The reader rule's test: the first queued thread is a waiting writer. */
        boolean writerFirstInQueue() {
            Thread first = getFirstQueuedThread();
            return first != null && waitingWriterThreads.contains(first);
        }

        @Override
        protected boolean tryAcquire(int ignored) {
            return getState() == 0 && compareAndSetState(0, WRITER);
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
                if (waitingWriters != 0 && writerFirstInQueue()) {
                    return -1; // a writer is next: no overtaking it
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
                    return arg == ARG_DOWNGRADE || next == 0;
                }
            }
        }
    }
}
