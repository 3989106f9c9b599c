package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.SwappableReadWriteLock;
import org.rouse.lock.spi.AqsReadWrite;

/**
 * The {@code jdk} read-write primitive, {@link AqsReadWrite}, on real threads: sharing and exclusion, no reentry,
 * downgrading, a writer waiting at the head of the queue keeping new readers out and the readers queued behind it
 * getting in after it, writers that time out or are interrupted no longer keeping readers out, timeouts and interrupts of every
 * method, a mixed 8-thread run, and a facade over it swapped to {@code adaptive} and back while a writer waits in
 * it. The facade-level contract (reentrancy, write conditions, ...) over it runs in {@link ReadWriteConformanceTest}
 * (subjects {@code jdk} and the fallback).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AqsReadWriteTest {

    private final AqsReadWrite rw = (AqsReadWrite) new StrategyLockEngine().newReadWritePrimitive("jdk");

    private static Thread start(String name, TestThreads.Body body, ConcurrentLinkedQueue<Throwable> failures) {
        return TestThreads.start(name, 1, failures, body).get(0);
    }

    private boolean readElsewhere() throws Exception {
        return TestThreads.onOtherThread(() -> {
            if (rw.tryLockShared()) {
                rw.unlockShared();
                return true;
            }
            return false;
        });
    }

    private boolean writeElsewhere() throws Exception {
        return TestThreads.onOtherThread(() -> {
            if (rw.tryLock()) {
                rw.unlock();
                return true;
            }
            return false;
        });
    }

    /** Waits until {@code thread} is parked inside {@code method} of the AQS (so it is queued). */
    private static void awaitParkedIn(Thread thread, String method) {
        Awaitility.await(thread.getName() + " parked in AbstractQueuedSynchronizer." + method)
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(2))
                .until(() ->
                        (thread.getState() == Thread.State.WAITING || thread.getState() == Thread.State.TIMED_WAITING)
                                && Arrays.stream(thread.getStackTrace())
                                        .anyMatch(f -> f.getClassName().endsWith("AbstractQueuedSynchronizer")
                                                && f.getMethodName().equals(method)));
    }

    @Test
    void theEngineHandsOutAqsReadWriteForJdk() {
        assertInstanceOf(AqsReadWrite.class, new StrategyLockEngine(true).newReadWritePrimitive("jdk"));
        assertEquals("jdk", rw.strategy());
    }

    @Test
    void readersShareWritersExcludeAndNothingIsReentrant() throws Exception {
        rw.lockShared();
        assertTrue(rw.isLocked());
        assertFalse(rw.isWriteLocked());
        assertTrue(readElsewhere(), "a second reader shares");
        assertFalse(writeElsewhere(), "a writer is kept out by a reader");
        assertFalse(rw.tryLock(), "a reader cannot upgrade");
        rw.unlockShared();
        assertFalse(rw.isLocked());

        assertTrue(rw.tryLock());
        assertTrue(rw.isWriteLocked());
        assertFalse(rw.tryLock(), "not reentrant: the facade keeps the hold count");
        assertFalse(rw.tryLockShared(), "the writer's own shared attempt fails (the facade tries it first)");
        assertTrue(rw.isWriteLocked(), "and leaves the write hold as it was");
        assertFalse(readElsewhere(), "a reader is kept out by a writer");
        assertFalse(writeElsewhere());
        rw.unlock();
        assertFalse(rw.isLocked());
        assertTrue(writeElsewhere());
    }

    @Test
    void aDowngradeKeepsWritersOutLetsReadersInAndWakesAQueuedReader() throws Exception {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        rw.lock();
        CountDownLatch readerIn = new CountDownLatch(1);
        Thread reader = start(
                "queued-reader",
                i -> {
                    rw.lockShared();
                    readerIn.countDown();
                    rw.unlockShared();
                },
                failures);
        awaitParkedIn(reader, "acquireShared");
        rw.downgrade();
        assertTrue(readerIn.await(10, TimeUnit.SECONDS), "the queued reader was not woken by the downgrade");
        assertTrue(rw.isLocked());
        assertFalse(rw.isWriteLocked());
        assertFalse(writeElsewhere(), "the downgraded hold keeps writers out");
        rw.unlockShared();
        TestThreads.joinAll(List.of(reader), Duration.ofSeconds(10), failures);
        assertFalse(rw.isLocked());
    }

    @Test
    void aWaitingWriterKeepsNewReadersOutAndTheReadersQueuedBehindItGetInAfterIt() throws Exception {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        rw.lockShared();
        Thread writer = start(
                "writer",
                i -> {
                    rw.lock();
                    order.add("writer");
                    rw.unlock();
                },
                failures);
        awaitParkedIn(writer, "acquire");
        assertTrue(rw.hasWaitingWriter());
        assertTrue(rw.isWriterFirstInQueue());
        assertFalse(readElsewhere(), "a new reader overtook the waiting writer");
        Thread reader = start(
                "reader",
                i -> {
                    rw.lockShared();
                    order.add("reader");
                    rw.unlockShared();
                },
                failures);
        awaitParkedIn(reader, "acquireShared");
        rw.unlockShared(); // the last reader out lets the writer in, and the writer's release the reader
        TestThreads.joinAll(List.of(writer, reader), Duration.ofSeconds(10), failures);
        assertEquals(List.of("writer", "reader"), List.copyOf(order));
        assertFalse(rw.hasWaitingWriter());
        assertFalse(rw.isLocked());
    }

    @Test
    void aWriterQueuedBehindAReaderGetsInWhileOtherReadersKeepOverlapping() throws Exception {
        // The queue: a reader, then the writer. The reader gets in when the first writer leaves; the writer is then
        // first in the queue while parked, and readers that keep overlapping must not keep it out (they did when a
        // writer said it waited only once it found itself first in the queue).
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        rw.lock();
        CountDownLatch queuedReaderIn = new CountDownLatch(1);
        CountDownLatch releaseQueuedReader = new CountDownLatch(1);
        Thread queuedReader = start(
                "queued-reader",
                i -> {
                    rw.lockShared();
                    queuedReaderIn.countDown();
                    releaseQueuedReader.await();
                    rw.unlockShared();
                },
                failures);
        awaitParkedIn(queuedReader, "acquireShared");
        CountDownLatch written = new CountDownLatch(1);
        Thread writer = start(
                "queued-writer",
                i -> {
                    rw.lock();
                    written.countDown();
                    rw.unlock();
                },
                failures);
        awaitParkedIn(writer, "acquire");
        assertTrue(rw.hasWaitingWriter());
        assertFalse(rw.isWriterFirstInQueue(), "the writer is queued behind the reader");
        rw.unlock(); // the queued reader gets in; the writer waits behind it, parked
        assertTrue(queuedReaderIn.await(10, TimeUnit.SECONDS));
        assertTrue(rw.isWriterFirstInQueue(), "the reader got in, so the writer heads the queue");
        // One thread keeps the lock read-held at every instant while it is let in: it takes its next read hold before
        // it lets go of the last (the primitive counts holds, not threads), so the readers never drain on their own.
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger refusals = new AtomicInteger();
        CountDownLatch firstAttempt = new CountDownLatch(1);
        List<Thread> overlapping = TestThreads.start("overlapping-reader", 1, failures, i -> {
            boolean holding = false;
            while (!stop.get()) {
                if (rw.tryLockShared()) {
                    if (holding) {
                        rw.unlockShared(); // the earlier hold; the new one keeps the lock read-held
                    }
                    holding = true;
                    firstAttempt.countDown();
                } else {
                    refusals.incrementAndGet(); // a writer waits: let go, then queue behind it
                    firstAttempt.countDown();
                    if (holding) {
                        rw.unlockShared();
                    }
                    rw.lockShared();
                    holding = true;
                }
            }
            if (holding) {
                rw.unlockShared();
            }
        });
        assertTrue(firstAttempt.await(10, TimeUnit.SECONDS));
        try {
            releaseQueuedReader.countDown(); // from now on only the overlapping reader could hold the lock
            assertTrue(written.await(10, TimeUnit.SECONDS), "the writer starved behind overlapping readers");
        } finally {
            stop.set(true);
        }
        assertTrue(refusals.get() > 0, "the waiting writer never turned a new reader away");
        TestThreads.joinAll(overlapping, Duration.ofSeconds(10), failures);
        TestThreads.joinAll(List.of(queuedReader, writer), Duration.ofSeconds(10), failures);
        assertFalse(rw.hasWaitingWriter());
        assertFalse(rw.isLocked());
    }

    @Test
    void aWriterThatTimesOutNoLongerKeepsReadersBehindIt() throws Exception {
        rw.lockShared();
        long start = System.nanoTime();
        boolean got = TestThreads.onOtherThread(() -> rw.tryLockNanos(TimeUnit.MILLISECONDS.toNanos(50)));
        long waited = System.nanoTime() - start;
        assertFalse(got);
        assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(50), "returned early: " + waited + " ns");
        assertFalse(rw.hasWaitingWriter(), "the timed-out writer still keeps readers behind it");
        assertTrue(readElsewhere());
        rw.unlockShared();
        assertTrue(rw.tryLock());
        rw.unlock();
    }

    @Test
    void aWriterInterruptedWhileWaitingThrowsAndNoLongerKeepsReadersBehindIt() throws Exception {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        rw.lockShared();
        Thread writer = start(
                "interrupted-writer",
                i -> {
                    try {
                        rw.lockInterruptibly();
                        rw.unlock();
                    } catch (InterruptedException e) {
                        thrown.set(e);
                    }
                },
                failures);
        awaitParkedIn(writer, "acquireInterruptibly");
        assertTrue(rw.hasWaitingWriter());
        writer.interrupt();
        TestThreads.joinAll(List.of(writer), Duration.ofSeconds(10), failures);
        assertInstanceOf(InterruptedException.class, thrown.get());
        assertFalse(rw.hasWaitingWriter(), "the interrupted writer still keeps readers behind it");
        assertTrue(readElsewhere());
        assertFalse(rw.isWriteLocked());
        rw.unlockShared();
        assertFalse(rw.isLocked());
    }

    @Test
    void aReaderInterruptedWhileWaitingThrowsAndHoldsNothing() throws Exception {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        rw.lock();
        Thread reader = start(
                "interrupted-reader",
                i -> {
                    try {
                        rw.lockSharedInterruptibly();
                        rw.unlockShared();
                    } catch (InterruptedException e) {
                        thrown.set(e);
                    }
                },
                failures);
        awaitParkedIn(reader, "acquireSharedInterruptibly");
        reader.interrupt();
        TestThreads.joinAll(List.of(reader), Duration.ofSeconds(10), failures);
        assertInstanceOf(InterruptedException.class, thrown.get());
        rw.unlock();
        assertFalse(rw.isLocked(), "the interrupted reader left a hold");
    }

    @Test
    void interruptibleAndTimedMethodsThrowOnAFreeLockWhenInterruptedBeforeTheCallAndClearTheStatus() {
        for (Attempt attempt : List.<Attempt>of(
                rw::lockInterruptibly,
                () -> rw.tryLockNanos(1_000_000L),
                rw::lockSharedInterruptibly,
                () -> rw.tryLockSharedNanos(1_000_000L))) {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, attempt::run);
            assertFalse(Thread.interrupted(), "status not cleared");
            assertFalse(rw.isLocked(), "acquired although interrupted");
        }
    }

    @Test
    void uninterruptibleAndNonWaitingMethodsAcquireWithTheStatusSetAndKeepIt() {
        Thread.currentThread().interrupt();
        try {
            rw.lockShared();
            rw.unlockShared();
            assertTrue(rw.tryLockShared());
            rw.unlockShared();
            rw.lock();
            rw.unlock();
            assertTrue(rw.tryLock());
            rw.unlock();
            assertTrue(Thread.currentThread().isInterrupted(), "status lost");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void timedAttemptsTimeOutAndSucceedWhenReleasedInTime() throws Exception {
        rw.lock();
        long start = System.nanoTime();
        assertFalse(TestThreads.onOtherThread(() -> rw.tryLockSharedNanos(TimeUnit.MILLISECONDS.toNanos(30))));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(30));
        assertFalse(TestThreads.onOtherThread(() -> rw.tryLockSharedNanos(0L)));
        assertFalse(TestThreads.onOtherThread(() -> rw.tryLockNanos(-1L)));

        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger got = new AtomicInteger();
        Thread reader = start(
                "timed-reader",
                i -> {
                    if (rw.tryLockSharedNanos(TimeUnit.SECONDS.toNanos(20))) {
                        got.incrementAndGet();
                        rw.unlockShared();
                    }
                },
                failures);
        awaitParkedIn(reader, "tryAcquireSharedNanos");
        rw.unlock();
        TestThreads.joinAll(List.of(reader), Duration.ofSeconds(10), failures);
        assertEquals(1, got.get());

        rw.lockShared();
        Thread writer = start(
                "timed-writer",
                i -> {
                    if (rw.tryLockNanos(TimeUnit.SECONDS.toNanos(20))) {
                        got.incrementAndGet();
                        rw.unlock();
                    }
                },
                failures);
        awaitParkedIn(writer, "tryAcquireNanos");
        rw.unlockShared();
        TestThreads.joinAll(List.of(writer), Duration.ofSeconds(10), failures);
        assertEquals(2, got.get());
        assertFalse(rw.hasWaitingWriter());
    }

    @Test
    void eightThreadsMixingEveryMethodNeverPutAWriterWithAnyone() throws Exception {
        AtomicInteger readers = new AtomicInteger();
        int[] writers = {0};
        long[] counter = {0};
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = TestThreads.start("aqs-rw-mixed", 8, failures, i -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int op = 0; op < 20_000; op++) {
                int kind = random.nextInt(20);
                if (kind < 3) {
                    boolean got = switch (kind) {
                        case 0 -> {
                            rw.lock();
                            yield true;
                        }
                        case 1 -> rw.tryLock();
                        default -> rw.tryLockNanos(random.nextLong(1_000L, 200_000L));
                    };
                    if (!got) {
                        continue;
                    }
                    if (++writers[0] != 1 || readers.get() != 0) {
                        violations.incrementAndGet();
                    }
                    counter[0]++;
                    writes.incrementAndGet();
                    writers[0]--;
                    if (random.nextBoolean()) {
                        rw.downgrade();
                        readers.incrementAndGet();
                        if (writers[0] != 0) {
                            violations.incrementAndGet();
                        }
                        readers.decrementAndGet();
                        rw.unlockShared();
                    } else {
                        rw.unlock();
                    }
                } else {
                    boolean got = switch (kind % 3) {
                        case 0 -> {
                            rw.lockShared();
                            yield true;
                        }
                        case 1 -> rw.tryLockShared();
                        default -> rw.tryLockSharedNanos(random.nextLong(1_000L, 200_000L));
                    };
                    if (!got) {
                        continue;
                    }
                    readers.incrementAndGet();
                    if (writers[0] != 0) {
                        violations.incrementAndGet();
                    }
                    Thread.onSpinWait();
                    readers.decrementAndGet();
                    rw.unlockShared();
                }
            }
        });
        TestThreads.joinAll(threads, Duration.ofSeconds(25), failures);
        assertEquals(0, violations.get(), "a writer inside together with another thread");
        assertEquals(writes.get(), counter[0], "lost updates");
        assertTrue(writes.get() > 0);
        assertFalse(rw.hasWaitingWriter());
        assertFalse(rw.isLocked());
    }

    @Test
    void aFacadeSwappedFromJdkToAdaptiveAndBackWhileAWriterWaitsInTheAqsAdmitsNobodyEarly() throws Exception {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(new StrategyLockEngine(true));
        assertTrue(core.configure("jdk", new String[0]));
        SwappableReadWriteLock lock = core.newView("swap.bundle").readWriteLock("rw");
        assertEquals("jdk", lock.strategy());
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch writerIn = new CountDownLatch(1);
        CountDownLatch writerMayLeave = new CountDownLatch(1);
        AtomicReference<String> writerStrategy = new AtomicReference<>();

        lock.writeLock().lock();
        Thread writer = start(
                "swap-writer",
                i -> {
                    lock.writeLock().lock();
                    try {
                        writerStrategy.set(lock.strategy());
                        writerIn.countDown();
                        assertTrue(writerMayLeave.await(20, TimeUnit.SECONDS));
                    } finally {
                        lock.writeLock().unlock();
                    }
                },
                failures);
        awaitParkedIn(writer, "acquire"); // waiting at the head of the jdk AqsReadWrite's queue
        assertTrue(core.configure("adaptive", new String[0])); // pending: the lock is write-held
        assertEquals("jdk", lock.strategy());
        assertFalse(TestThreads.tryLockElsewhere(lock.readLock()), "a reader got in beside the writer");
        assertEquals(1, writerIn.getCount(), "the waiting writer got in beside the holder");
        lock.writeLock().unlock(); // swaps before releasing: the writer drains from the old primitive

        assertTrue(writerIn.await(10, TimeUnit.SECONDS));
        assertEquals("adaptive", writerStrategy.get(), "the writer was admitted through the retired primitive");
        assertFalse(TestThreads.tryLockElsewhere(lock.readLock()), "a reader got in beside the writer");
        assertTrue(core.configure("jdk", new String[0])); // pending: the lock is write-held
        CountDownLatch readerIn = new CountDownLatch(1);
        AtomicReference<String> readerStrategy = new AtomicReference<>();
        Thread reader = start(
                "swap-reader",
                i -> {
                    lock.readLock().lock();
                    readerStrategy.set(lock.strategy());
                    readerIn.countDown();
                    lock.readLock().unlock();
                },
                failures);
        TestThreads.awaitInside(reader, "AdaptiveReadWrite", "lockShared");
        assertEquals(1, readerIn.getCount(), "a reader got in beside the writer");
        writerMayLeave.countDown(); // the writer's final unlock swaps to jdk

        assertTrue(readerIn.await(10, TimeUnit.SECONDS));
        TestThreads.joinAll(List.of(writer, reader), Duration.ofSeconds(10), failures);
        assertEquals("jdk", readerStrategy.get());
        assertEquals("jdk", lock.strategy());
        assertEquals(2, lock.statistics().swaps());
        assertTrue(lock.writeLock().tryLock(), "left held");
        lock.writeLock().unlock();
    }

    /** An acquisition that may throw {@link InterruptedException}. */
    @FunctionalInterface
    private interface Attempt {
        void run() throws InterruptedException;
    }
}
