package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code adaptive} read-write primitive on real threads: a writer's release wakes parked readers instead of
 * letting unscheduled threads hold the lock, the readers' fairness timer lets them in directly once it has expired,
 * writers make progress under a read load that never lets the read lock go free, and no writer is ever inside
 * together with anyone, whichever acquire methods, timeouts and interrupts are mixed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdaptiveReadWriteTest {

    private static final long HOUR_NANOS = TimeUnit.HOURS.toNanos(1);

    private static AdaptiveReadWrite lock(int maxSpins, long fairnessBoundNanos) {
        AdaptiveTuning tuning = new AdaptiveTuning(maxSpins, fairnessBoundNanos);
        return new AdaptiveReadWrite(() -> tuning);
    }

    /** Starts {@code n} readers that each take the read lock once; returns once all of them are parked. */
    private static List<Thread> parkedReaders(
            AdaptiveReadWrite lock,
            int n,
            CountDownLatch inside,
            CountDownLatch leave,
            ConcurrentLinkedQueue<Throwable> failures) {
        List<Thread> readers = TestThreads.start("parked-reader", n, failures, i -> {
            lock.lockShared();
            try {
                inside.countDown();
                assertTrue(leave.await(30, TimeUnit.SECONDS));
            } finally {
                lock.unlockShared();
            }
        });
        for (Thread t : readers) {
            TestThreads.awaitInside(t, "LockSupport", "park");
        }
        return readers;
    }

    /**
     * The facade tries a first read on the primitive before it asks whether the reader is its writer, so the writer's
     * own shared attempt must fail and leave the primitive exactly as it was (ReadWritePrimitive's contract).
     */
    @Test
    void theWritersOwnSharedAttemptFailsAndLeavesItsHold() throws Exception {
        AdaptiveReadWrite rw = lock(5, HOUR_NANOS);
        rw.lock();

        assertFalse(rw.tryLockShared(), "held exclusively, by the caller too");
        assertTrue(rw.isWriteLocked(), "still held exclusively, with no reader counted in");
        assertFalse(
                TestThreads.onOtherThread(() -> {
                    if (rw.tryLockShared()) {
                        rw.unlockShared();
                        return true;
                    }
                    return false;
                }),
                "other readers still kept out");
        rw.unlock();
        assertFalse(rw.isLocked(), "nothing left behind by the failed attempt");
        assertTrue(rw.tryLockShared(), "free again");
        rw.unlockShared();
    }

    @Test
    void aWritersReleaseIsAReleaseStoreSoTheFacadeSwapperRetries() {
        assertTrue(lock(5, HOUR_NANOS).releasesByStore(), "its writers' mutex frees itself by a release store");
    }

    /**
     * Wake, don't grant: while the readers' fairness timer runs, a writer's release wakes the parked readers without
     * counting them in, so a running writer can take the lock before they are scheduled (it does within a few
     * tries), and the woken readers get in once they run.
     */
    @Test
    void aWritersReleaseWakesParkedReadersWithoutAdmittingThem() throws Exception {
        AdaptiveReadWrite lock = lock(0, HOUR_NANOS);
        int barged = 0;
        for (int attempt = 0; attempt < 20 && barged == 0; attempt++) {
            lock.lock();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch inside = new CountDownLatch(3);
            CountDownLatch leave = new CountDownLatch(1);
            List<Thread> readers = parkedReaders(lock, 3, inside, leave, failures);
            lock.unlock();
            if (lock.tryLock()) { // this thread still runs; the woken readers may not have run yet
                barged++;
                assertTrue(lock.isWriteLocked());
                lock.unlock();
            }
            assertTrue(inside.await(20, TimeUnit.SECONDS), "the woken readers got in");
            assertEquals(3, lock.readers());
            leave.countDown();
            TestThreads.joinAll(readers, Duration.ofSeconds(20), failures);
            assertEquals(0, lock.handoffs(), "the release counted the parked readers in (a direct hand-off)");
        }
        assertEquals(1, barged, "a running writer never got the lock a release had freed with readers parked");
        assertFalse(lock.isLocked());
        assertEquals(0, lock.queued());
    }

    /** Eventual fairness for readers: once the timer has expired, the release counts every parked reader in. */
    @Test
    void anExpiredReaderTimerLetsTheParkedReadersInDirectly() throws Exception {
        AdaptiveReadWrite lock = lock(0, HOUR_NANOS);
        lock.lock();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch inside = new CountDownLatch(3);
        CountDownLatch leave = new CountDownLatch(1);
        List<Thread> readers = parkedReaders(lock, 3, inside, leave, failures);

        lock.rearmReaderFairness(0L);
        lock.unlock();
        int admittedAtRelease = lock.readers();
        boolean writerGotIn = lock.tryLock();
        if (writerGotIn) {
            lock.unlock();
        }
        assertTrue(inside.await(20, TimeUnit.SECONDS));
        leave.countDown();
        TestThreads.joinAll(readers, Duration.ofSeconds(20), failures);

        assertEquals(3, admittedAtRelease, "granted readers hold the lock from the release on");
        assertFalse(writerGotIn, "no writer between the release and the granted readers");
        assertEquals(3, lock.handoffs());
        assertFalse(lock.isLocked());
    }

    /**
     * The word's waits spin their own bounds: a writer that finds a reader inside spins OPEN_SPINS with the lock
     * open, then closes it and spins DRAIN_SPINS before it parks; a reader that finds it
     * parked draining does not spin at all, since the reader it waits for is not running.
     */
    @Test
    void aWriterSpinsOpenThenClosedBeforeItParksAndReadersDoNotSpinOnAParkedWriter() throws Exception {
        AdaptiveReadWrite lock = lock(AdaptiveTuning.DEFAULT_MAX_SPINS, HOUR_NANOS);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        lock.lockShared(); // the reader inside
        Thread writer = TestThreads.startParked("writer", failures, i -> {
            lock.lock();
            lock.unlock();
        });
        assertEquals(
                AdaptiveReadWrite.OPEN_SPINS + AdaptiveReadWrite.DRAIN_SPINS,
                lock.spins(),
                "the writer's spins with the lock open and then closed");
        assertFalse(TestThreads.onOtherThread(lock::tryLockShared), "the parked writer has closed the lock");

        Thread reader = TestThreads.startParked("late-reader", failures, i -> {
            lock.lockShared();
            lock.unlockShared();
        });
        assertEquals(
                AdaptiveReadWrite.OPEN_SPINS + AdaptiveReadWrite.DRAIN_SPINS,
                lock.spins(),
                "a reader arriving while the writer is parked draining parks without spinning");

        lock.unlockShared(); // the last reader out lets the writer in; its release wakes the late reader
        TestThreads.joinAll(List.of(writer, reader), Duration.ofSeconds(20), failures);
        assertFalse(lock.isLocked());
    }

    /** A reader that finds a writer inside, not parked, spins READER_SPINS before it parks. */
    @Test
    void aReaderSpinsForARunningWriterBeforeItParks() throws Exception {
        AdaptiveReadWrite lock = lock(AdaptiveTuning.DEFAULT_MAX_SPINS, HOUR_NANOS);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        lock.lock();
        Thread reader = TestThreads.startParked("reader", failures, i -> {
            lock.lockShared();
            lock.unlockShared();
        });
        assertEquals(AdaptiveReadWrite.READER_SPINS, lock.spins());
        lock.unlock();
        TestThreads.joinAll(List.of(reader), Duration.ofSeconds(20), failures);
        assertFalse(lock.isLocked());
    }

    /** An engine configured not to spin ({@code adaptive.spin.max} = 0) spins on no wait of the word either. */
    @Test
    void noWaitSpinsWhenTheEngineIsConfiguredNotTo() throws Exception {
        AdaptiveReadWrite lock = lock(0, HOUR_NANOS);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        lock.lockShared();
        Thread writer = TestThreads.startParked("writer", failures, i -> {
            lock.lock();
            lock.unlock();
        });
        lock.unlockShared();
        TestThreads.joinAll(List.of(writer), Duration.ofSeconds(20), failures);

        lock.lock();
        Thread reader = TestThreads.startParked("reader", failures, i -> {
            lock.lockShared();
            lock.unlockShared();
        });
        lock.unlock();
        TestThreads.joinAll(List.of(reader), Duration.ofSeconds(20), failures);
        assertEquals(0, lock.spins());
    }

    /**
     * Writers are never starved by readers: 8 readers overlap so that the read lock is never free, and 2 writers
     * must each still complete their writes, every wait bounded (far above a scheduling quantum, far below the
     * test's run: a reader-preferring lock would keep them out for as long as the readers run).
     */
    @Test
    void writersMakeProgressUnderAReadLoadThatNeverLetsGo() throws Exception {
        AdaptiveReadWrite lock = lock(100, TimeUnit.MILLISECONDS.toNanos(1));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger readersInside = new AtomicInteger();
        AtomicLong overlappingReads = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch readLoadOn = new CountDownLatch(1);
        AtomicLong sinks = new AtomicLong();
        List<Thread> readers = TestThreads.start("read-load", 8, failures, i -> {
            long sink = 0;
            while (!stop.get()) {
                lock.lockShared();
                try {
                    if (readersInside.incrementAndGet() > 1) {
                        overlappingReads.incrementAndGet();
                        readLoadOn.countDown();
                    }
                    for (int k = 0; k < 2_000; k++) { // ~ a few µs inside: the holds overlap
                        sink = sink * 31 + k;
                    }
                    readersInside.decrementAndGet();
                } finally {
                    lock.unlockShared();
                }
            }
            sinks.addAndGet(sink); // keeps the loop's work
        });
        assertTrue(readLoadOn.await(20, TimeUnit.SECONDS), "readers overlap");
        int writesEach = 200;
        long bound = TimeUnit.SECONDS.toNanos(2);
        AtomicLong longestWait = new AtomicLong();
        int[] counter = {0};
        List<Thread> writers = TestThreads.start("writer", 2, failures, i -> {
            for (int w = 0; w < writesEach; w++) {
                long t0 = System.nanoTime();
                if (w % 2 == 0) {
                    lock.lock();
                } else {
                    assertTrue(lock.tryLockNanos(bound), "a timed write acquisition timed out under the read load");
                }
                longestWait.accumulateAndGet(System.nanoTime() - t0, Math::max);
                try {
                    assertEquals(0, readersInside.get(), "a writer inside with readers");
                    counter[0]++;
                } finally {
                    lock.unlock();
                }
            }
        });
        TestThreads.joinAll(writers, Duration.ofSeconds(40), failures);
        stop.set(true);
        TestThreads.joinAll(readers, Duration.ofSeconds(20), failures);

        assertEquals(2 * writesEach, counter[0]);
        assertTrue(overlappingReads.get() > 0);
        assertTrue(
                longestWait.get() < bound,
                "longest write wait " + TimeUnit.NANOSECONDS.toMillis(longestWait.get()) + " ms");
        assertFalse(lock.isLocked());
    }

    /**
     * No writer with anyone: 16 threads, a third of them writers, every acquire method (blocking, interruptible,
     * try, timed), downgrades, random interrupts and timeouts, with the fairness timer short so waking, granting,
     * draining and giving up all happen; counted on every hold. With spinning off (every wait parks) and on (the
     * word's fixed spins, a writer's open spin among them).
     */
    @ParameterizedTest(name = "adaptive.spin.max = {0}")
    @ValueSource(ints = {0, AdaptiveTuning.DEFAULT_MAX_SPINS})
    void noWriterIsEverInsideWithAnyoneWhateverTheAcquireMethods(int maxSpins) throws Exception {
        AdaptiveReadWrite lock = lock(maxSpins, TimeUnit.MICROSECONDS.toNanos(200));
        AtomicInteger readersInside = new AtomicInteger();
        AtomicInteger writersInside = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicLong writes = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        long[] counter = {0};
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = TestThreads.start("rw-mix", 16, failures, i -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                boolean write = random.nextInt(3) == 0;
                boolean got;
                try {
                    got = switch (random.nextInt(4)) {
                        case 0 -> {
                            if (write) {
                                lock.lock();
                            } else {
                                lock.lockShared();
                            }
                            yield true;
                        }
                        case 1 -> {
                            if (write) {
                                lock.lockInterruptibly();
                            } else {
                                lock.lockSharedInterruptibly();
                            }
                            yield true;
                        }
                        case 2 -> write ? lock.tryLock() : lock.tryLockShared();
                        default -> {
                            long nanos = random.nextLong(1_000, 300_000);
                            yield write ? lock.tryLockNanos(nanos) : lock.tryLockSharedNanos(nanos);
                        }
                    };
                } catch (InterruptedException e) {
                    continue;
                }
                Thread.interrupted(); // an interrupt that arrived after the acquisition
                if (!got) {
                    continue;
                }
                if (write) {
                    if (writersInside.incrementAndGet() != 1 || readersInside.get() != 0) {
                        violations.incrementAndGet();
                    }
                    long v = counter[0];
                    Thread.onSpinWait();
                    counter[0] = v + 1;
                    writes.incrementAndGet();
                    boolean downgrade = random.nextInt(4) == 0;
                    if (downgrade) {
                        readersInside.incrementAndGet(); // counted in before the writer leaves: atomic downgrade
                        writersInside.decrementAndGet();
                        lock.downgrade();
                        if (writersInside.get() != 0) {
                            violations.incrementAndGet();
                        }
                        readersInside.decrementAndGet();
                        lock.unlockShared();
                    } else {
                        writersInside.decrementAndGet();
                        lock.unlock();
                    }
                } else {
                    readersInside.incrementAndGet();
                    if (writersInside.get() != 0) {
                        violations.incrementAndGet();
                    }
                    Thread.onSpinWait();
                    readersInside.decrementAndGet();
                    lock.unlockShared();
                    reads.incrementAndGet();
                }
            }
        });
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        CountDownLatch pace = new CountDownLatch(1);
        while (System.nanoTime() < end) {
            workers.get(ThreadLocalRandom.current().nextInt(workers.size())).interrupt();
            pace.await(1, TimeUnit.MILLISECONDS); // pacing the interrupts; nothing counts the latch down
        }
        stop.set(true);
        TestThreads.joinAll(workers, Duration.ofSeconds(30), failures);

        assertEquals(0, violations.get(), "a writer inside together with another thread");
        assertEquals(writes.get(), counter[0], "lost updates");
        assertTrue(reads.get() > 0 && writes.get() > 0, "reads " + reads + ", writes " + writes);
        assertFalse(lock.isLocked(), "left held");
        assertEquals(0, lock.queued());
        assertTrue(lock.tryLock());
        lock.unlock();
    }
}
