package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.SwappableReadWriteLock;

/**
 * The {@link ReadWriteLock} contract as {@link ReentrantReadWriteLock} documents it (reentrancy, downgrading, no
 * upgrading, interrupts, timeouts, {@code IllegalMonitorStateException}, write conditions), run against a read-write
 * facade over every read-write strategy of the engine, against the built-in fallback (no engine), and against
 * {@code ReentrantReadWriteLock} itself as the reference: whatever passes for the reference is JDK behaviour.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadWriteConformanceTest {

    /** A lock under test, and the swap of its strategy (none for the reference). */
    record Tested(ReadWriteLock lock, Supplier<String> swap) {}

    /** One kind of lock the suite runs against. */
    record Subject(String name, Supplier<Tested> factory) {
        Tested create() {
            return factory.get();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<String> STRATEGIES = List.copyOf(new StrategyLockEngine(true).readWriteStrategies());

    static Stream<Subject> subjects() {
        Stream<Subject> strategies = STRATEGIES.stream().map(s -> new Subject(s, () -> facade(s)));
        Stream<Subject> others = Stream.of(
                new Subject("fallback (no engine)", ReadWriteConformanceTest::fallbackFacade),
                new Subject(
                        "ReentrantReadWriteLock (reference)",
                        () -> new Tested(new ReentrantReadWriteLock(), () -> null)));
        return Stream.concat(strategies, others);
    }

    /** A facade over {@code strategy}; its swap moves it to the next read-write strategy of the engine. */
    private static Tested facade(String strategy) {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(new StrategyLockEngine(true));
        assertTrue(core.configure(strategy, new String[0]));
        SwappableReadWriteLock lock = core.newView("test.bundle").readWriteLock("rw");
        assertEquals(strategy, lock.strategy());
        AtomicInteger position = new AtomicInteger(STRATEGIES.indexOf(strategy));
        return new Tested(lock, () -> {
            String next = STRATEGIES.get(position.incrementAndGet() % STRATEGIES.size());
            assertTrue(core.configure(next, new String[0]));
            return next;
        });
    }

    /** A facade on the built-in fallback; its swaps bring an engine ({@code adaptive}) and take it away. */
    private static Tested fallbackFacade() {
        LockFrontCore core = new LockFrontCore();
        SwappableReadWriteLock lock = core.newView("test.bundle").readWriteLock("rw");
        assertEquals("fallback", lock.strategy());
        AtomicBoolean engine = new AtomicBoolean();
        return new Tested(lock, () -> {
            boolean bring = !engine.get();
            engine.set(bring);
            core.swapTo(bring ? new StrategyLockEngine(true) : null);
            return bring ? AdaptiveReadWrite.STRATEGY : "fallback";
        });
    }

    // ------------------------------------------------------------------ what ReadWriteLock does not say

    private static int readHolds(ReadWriteLock lock) {
        return lock instanceof SwappableReadWriteLock s
                ? s.readHoldCount()
                : ((ReentrantReadWriteLock) lock).getReadHoldCount();
    }

    private static int writeHolds(ReadWriteLock lock) {
        return lock instanceof SwappableReadWriteLock s
                ? s.writeHoldCount()
                : ((ReentrantReadWriteLock) lock).getWriteHoldCount();
    }

    private static boolean writeLocked(ReadWriteLock lock) {
        return lock instanceof SwappableReadWriteLock s
                ? s.isWriteLocked()
                : ((ReentrantReadWriteLock) lock).isWriteLocked();
    }

    private static String strategy(ReadWriteLock lock) {
        return lock instanceof SwappableReadWriteLock s ? s.strategy() : null;
    }

    private static boolean elsewhere(Supplier<Boolean> attempt) throws Exception {
        return TestThreads.onOtherThread(attempt::get);
    }

    /** Another thread takes the lock in {@code read} mode if it can now, and releases it again. */
    private static boolean availableElsewhere(Lock lock) throws Exception {
        return elsewhere(() -> {
            if (lock.tryLock()) {
                lock.unlock();
                return true;
            }
            return false;
        });
    }

    // ------------------------------------------------------------------------------ sharing and exclusion

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void readersShareAndExcludeWritersAndAWriterExcludesEveryone(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        lock.readLock().lock();
        try {
            assertTrue(availableElsewhere(lock.readLock()), "readers share the lock");
            assertFalse(availableElsewhere(lock.writeLock()), "a reader excludes writers");
        } finally {
            lock.readLock().unlock();
        }
        assertTrue(availableElsewhere(lock.writeLock()), "free again");
        lock.writeLock().lock();
        try {
            assertTrue(writeLocked(lock));
            assertFalse(availableElsewhere(lock.readLock()), "a writer excludes readers");
            assertFalse(availableElsewhere(lock.writeLock()), "a writer excludes writers");
        } finally {
            lock.writeLock().unlock();
        }
        assertFalse(writeLocked(lock));
        assertTrue(availableElsewhere(lock.readLock()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void readersAndWritersUnderSixteenThreadsNeverOverlapAWriter(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        int threads = 16;
        int rounds = 2_000;
        AtomicInteger readers = new AtomicInteger();
        int[] writers = {0};
        long[] counter = {0};
        AtomicInteger violations = new AtomicInteger();
        AtomicLong writes = new AtomicLong();
        AtomicInteger maxReaders = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = TestThreads.start("rw", threads, failures, i -> {
            go.await();
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int r = 0; r < rounds; r++) {
                if (random.nextInt(10) == 0) {
                    lock.writeLock().lock();
                    try {
                        if (++writers[0] != 1 || readers.get() != 0) {
                            violations.incrementAndGet();
                        }
                        long read = counter[0];
                        Thread.onSpinWait();
                        counter[0] = read + 1;
                        writers[0]--;
                    } finally {
                        lock.writeLock().unlock();
                    }
                    writes.incrementAndGet();
                } else {
                    lock.readLock().lock();
                    try {
                        int now = readers.incrementAndGet();
                        maxReaders.accumulateAndGet(now, Math::max);
                        if (writers[0] != 0) {
                            violations.incrementAndGet();
                        }
                        Thread.onSpinWait();
                        readers.decrementAndGet();
                    } finally {
                        lock.readLock().unlock();
                    }
                }
            }
        });
        go.countDown();
        TestThreads.joinAll(workers, Duration.ofSeconds(50), failures);

        assertEquals(0, violations.get(), "a writer together with another thread");
        assertEquals(writes.get(), counter[0], "lost updates");
        if (lock instanceof SwappableReadWriteLock s) {
            assertEquals((long) threads * rounds, s.statistics().acquisitions());
        }
        assertFalse(writeLocked(lock));
        assertTrue(lock.writeLock().tryLock(), "left held");
        lock.writeLock().unlock();
    }

    // ---------------------------------------------------------------------------------- reentrancy

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void bothLocksAreReentrantThroughEveryAcquireMethod(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        for (Lock l : List.of(lock.readLock(), lock.writeLock())) {
            l.lock();
            assertTrue(l.tryLock());
            l.lockInterruptibly();
            assertTrue(l.tryLock(1, TimeUnit.SECONDS));
            assertTrue(l.tryLock(0, TimeUnit.SECONDS));
            assertEquals(5, l == lock.readLock() ? readHolds(lock) : writeHolds(lock));
            assertFalse(availableElsewhere(lock.writeLock()));
            for (int i = 0; i < 4; i++) {
                l.unlock();
                assertFalse(availableElsewhere(lock.writeLock()), "released before the last unlock");
            }
            l.unlock();
            assertEquals(0, readHolds(lock) + writeHolds(lock));
            assertTrue(availableElsewhere(lock.writeLock()), "not released by the last unlock");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aWriterMayTakeTheReadLockAndDowngrade(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        lock.writeLock().lock();
        lock.readLock().lock();
        assertEquals(1, readHolds(lock));
        assertFalse(availableElsewhere(lock.readLock()), "still write-locked");
        lock.writeLock().unlock(); // downgrade
        assertEquals(0, writeHolds(lock));
        assertEquals(1, readHolds(lock));
        assertFalse(writeLocked(lock));
        assertTrue(availableElsewhere(lock.readLock()), "other readers come in after the downgrade");
        assertFalse(availableElsewhere(lock.writeLock()), "the downgraded reader still excludes writers");
        lock.readLock().unlock();
        assertTrue(availableElsewhere(lock.writeLock()));

        // reads taken under the write lock and released before it leave nothing behind
        lock.writeLock().lock();
        lock.readLock().lock();
        lock.readLock().unlock();
        lock.writeLock().unlock();
        assertEquals(0, readHolds(lock));
        assertTrue(availableElsewhere(lock.writeLock()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aReaderCannotUpgrade(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        lock.readLock().lock();
        try {
            assertFalse(lock.writeLock().tryLock(), "tryLock upgrades");
            assertFalse(lock.writeLock().tryLock(20, TimeUnit.MILLISECONDS), "timed tryLock upgrades");
            assertEquals(0, writeHolds(lock));
        } finally {
            lock.readLock().unlock();
        }
        assertTrue(lock.writeLock().tryLock());
        lock.writeLock().unlock();
    }

    // ------------------------------------------------------------------------------- bad use

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void unlockingWhatTheThreadDoesNotHoldThrows(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        assertThrows(IllegalMonitorStateException.class, () -> lock.readLock().unlock());
        assertThrows(IllegalMonitorStateException.class, () -> lock.writeLock().unlock());
        lock.readLock().lock();
        try {
            assertThrows(
                    IllegalMonitorStateException.class, () -> lock.writeLock().unlock());
            Exception other = TestThreads.onOtherThread(() -> {
                try {
                    lock.readLock().unlock();
                    return null;
                } catch (IllegalMonitorStateException e) {
                    return e;
                }
            });
            assertTrue(other instanceof IllegalMonitorStateException, "another thread released my read hold");
        } finally {
            lock.readLock().unlock();
        }
        lock.writeLock().lock();
        try {
            assertThrows(
                    IllegalMonitorStateException.class, () -> lock.readLock().unlock());
            Exception other = TestThreads.onOtherThread(() -> {
                try {
                    lock.writeLock().unlock();
                    return null;
                } catch (IllegalMonitorStateException e) {
                    return e;
                }
            });
            assertTrue(other instanceof IllegalMonitorStateException, "another thread released my write hold");
        } finally {
            lock.writeLock().unlock();
        }
        assertTrue(availableElsewhere(lock.writeLock()));
    }

    /** Read holds stay per thread while readers interleave (the facade caches the last reader's record). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void readHoldsStayPerThreadWhileReadersInterleave(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        ExecutorService a = Executors.newSingleThreadExecutor();
        ExecutorService b = Executors.newSingleThreadExecutor();
        try {
            a.submit(() -> {
                        lock.readLock().lock();
                        lock.readLock().lock();
                    })
                    .get();
            b.submit(() -> lock.readLock().lock()).get(); // b read last
            assertEquals(0, readHolds(lock), "the main thread holds no read");
            assertThrows(
                    IllegalMonitorStateException.class, () -> lock.readLock().unlock());
            assertEquals(2, a.submit(() -> readHolds(lock)).get());
            assertEquals(1, b.submit(() -> readHolds(lock)).get());
            a.submit(() -> {
                        lock.readLock().unlock();
                        lock.readLock().unlock();
                    })
                    .get();
            assertEquals(1, b.submit(() -> readHolds(lock)).get());
            assertFalse(lock.writeLock().tryLock(), "b still reads");
            ExecutionException extra = assertThrows(
                    ExecutionException.class,
                    () -> a.submit(() -> lock.readLock().unlock()).get());
            assertTrue(extra.getCause() instanceof IllegalMonitorStateException, "a released more than it held");
            b.submit(() -> lock.readLock().unlock()).get();
            assertTrue(lock.writeLock().tryLock());
            lock.writeLock().unlock();
        } finally {
            a.shutdownNow();
            b.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void readHoldsStayPerThreadAfterTheFirstReaderHasEnded(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        Thread first = new Thread(() -> {
            lock.readLock().lock(); // the facade keeps this thread's record in its slot for good
            lock.readLock().unlock();
        });
        first.start();
        first.join();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread later = new Thread(() -> {
            try {
                lock.readLock().lock();
                lock.readLock().lock();
                releaseTwoReadHolds(lock);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        later.start();
        later.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(0, readHolds(lock), "the main thread holds no read");
        assertTrue(lock.writeLock().tryLock(), "nothing is left held");
        lock.writeLock().unlock();
    }

    /** The calling thread holds two reads of {@code lock}: checks its count as it releases them, and one more. */
    private static void releaseTwoReadHolds(ReadWriteLock lock) {
        assertEquals(2, readHolds(lock));
        lock.readLock().unlock();
        assertEquals(1, readHolds(lock));
        lock.readLock().unlock();
        assertEquals(0, readHolds(lock));
        assertThrows(IllegalMonitorStateException.class, () -> lock.readLock().unlock());
    }

    /**
     * 33 readers hold the lock at once, so at least two of them have thread ids with the same low five bits: the
     * facade keeps 32 slots of read records by thread id, and a reader whose slot another thread has claimed must still
     * count its own holds, not that thread's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void readHoldsStayPerThreadWithMoreReadersThanSlots(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        int readers = 33;
        CountDownLatch allHoldTwo = new CountDownLatch(readers);
        CountDownLatch checked = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < readers; i++) {
            Thread reader = new Thread(() -> {
                try {
                    lock.readLock().lock();
                    lock.readLock().lock();
                    allHoldTwo.countDown();
                    assertTrue(checked.await(30, TimeUnit.SECONDS));
                    releaseTwoReadHolds(lock);
                } catch (Throwable e) {
                    failures.add(e);
                    allHoldTwo.countDown();
                }
            });
            threads.add(reader);
            reader.start();
        }
        assertTrue(allHoldTwo.await(30, TimeUnit.SECONDS));
        assertFalse(lock.writeLock().tryLock(), "33 readers hold the lock");
        assertEquals(0, readHolds(lock), "the main thread holds no read");
        checked.countDown();
        for (Thread reader : threads) {
            reader.join(30_000);
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " readers failed", failures.peek());
        }
        assertTrue(lock.writeLock().tryLock(), "every reader has left");
        lock.writeLock().unlock();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void onlyTheWriteLockHasConditionsAndTheyNeedTheWriteLock(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        assertThrows(UnsupportedOperationException.class, () -> lock.readLock().newCondition());
        Condition condition = lock.writeLock().newCondition();
        assertThrows(IllegalMonitorStateException.class, condition::await);
        assertThrows(IllegalMonitorStateException.class, condition::signal);
        assertThrows(IllegalMonitorStateException.class, condition::signalAll);
        lock.readLock().lock();
        try {
            assertThrows(IllegalMonitorStateException.class, condition::signal, "a read hold is not enough");
        } finally {
            lock.readLock().unlock();
        }
        lock.writeLock().lock();
        lock.writeLock().lock();
        try {
            long left = condition.awaitNanos(TimeUnit.MILLISECONDS.toNanos(20));
            assertTrue(left <= 0, "timed out without a signal");
            assertEquals(2, writeHolds(lock), "await restores every hold");
        } finally {
            lock.writeLock().unlock();
            lock.writeLock().unlock();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aSignalledWriterReturnsHoldingTheWriteLockAndReadersWaitMeanwhile(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        Condition ready = lock.writeLock().newCondition();
        boolean[] flag = {false};
        int[] waiting = {0};
        AtomicInteger holdsOnReturn = new AtomicInteger(-1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("rw-awaiter", 1, failures, i -> {
            lock.writeLock().lock();
            try {
                waiting[0]++;
                while (!flag[0]) {
                    ready.await();
                }
                holdsOnReturn.set(writeHolds(lock));
                assertFalse(availableElsewhere(lock.readLock()), "readers got in while the writer held it");
            } finally {
                lock.writeLock().unlock();
            }
        });
        awaitWaiting(lock, waiting);
        assertTrue(availableElsewhere(lock.readLock()), "await released the write lock");
        lock.writeLock().lock();
        try {
            flag[0] = true;
            ready.signal();
        } finally {
            lock.writeLock().unlock();
        }
        TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);
        assertEquals(1, holdsOnReturn.get());
    }

    // ---------------------------------------------------------------------------- interrupts, timeouts

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void interruptedBeforeTheCallBothLocksThrowEvenWhenFree(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        for (Lock l : List.of(lock.readLock(), lock.writeLock())) {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, l::lockInterruptibly);
            assertFalse(Thread.interrupted(), "status not cleared");
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> l.tryLock(1, TimeUnit.SECONDS));
            assertFalse(Thread.interrupted());
            Thread.currentThread().interrupt();
            assertTrue(l.tryLock(), "tryLock() ignores the interrupt status");
            l.unlock();
            assertTrue(Thread.interrupted(), "tryLock() keeps the status");
        }
        assertEquals(0, readHolds(lock) + writeHolds(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void interruptedWhileWaitingReadersAndWritersThrowAndLeaveNothingHeld(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        // a reader waits for a writer, a writer waits for a reader
        for (boolean readerWaits : new boolean[] {true, false}) {
            Lock holder = readerWaits ? lock.writeLock() : lock.readLock();
            Lock waiterLock = readerWaits ? lock.readLock() : lock.writeLock();
            holder.lock();
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> waiter = TestThreads.start("rw-interrupted", 1, failures, i -> {
                try {
                    waiterLock.lockInterruptibly();
                    waiterLock.unlock();
                } catch (InterruptedException e) {
                    outcome.set(e);
                    assertEquals(0, readHolds(lock) + writeHolds(lock));
                }
            });
            awaitParked(waiter.get(0));
            waiter.get(0).interrupt();
            TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);
            holder.unlock();
            assertTrue(outcome.get() instanceof InterruptedException, "no InterruptedException");
            assertTrue(availableElsewhere(lock.writeLock()), "left held after an interrupted wait");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void timedAttemptsTimeOutAndSucceedWhenReleasedInTime(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        lock.writeLock().lock();
        try {
            assertFalse(elsewhere(() -> timed(lock.readLock(), 20)), "read got in past a writer");
            assertFalse(elsewhere(() -> timed(lock.writeLock(), 20)));
            assertFalse(elsewhere(() -> timed(lock.readLock(), 0)));
            assertFalse(elsewhere(() -> timed(lock.writeLock(), -5)));
        } finally {
            lock.writeLock().unlock();
        }
        lock.readLock().lock();
        try {
            assertFalse(elsewhere(() -> timed(lock.writeLock(), 20)), "a writer got in past a reader");
        } finally {
            lock.readLock().unlock();
        }

        // released in time: the waiting reader and writer both succeed
        lock.writeLock().lock();
        AtomicBoolean readGot = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("rw-timed", 1, failures, i -> {
            readGot.set(timed(lock.readLock(), 20_000));
        });
        awaitParked(waiter.get(0));
        lock.writeLock().unlock();
        TestThreads.joinAll(waiter, Duration.ofSeconds(30), failures);
        assertTrue(readGot.get());
        assertTrue(availableElsewhere(lock.writeLock()));
    }

    private static boolean timed(Lock lock, long millis) {
        try {
            boolean got = lock.tryLock(millis, TimeUnit.MILLISECONDS);
            if (got) {
                lock.unlock();
            }
            return got;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    // --------------------------------------------------------------------------------- writer progress

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aWriterGetsInWhileReadersKeepOverlapping(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> readers = TestThreads.start("rw-reader", 4, failures, i -> {
            while (!stop.get()) {
                lock.readLock().lock();
                try {
                    reads.incrementAndGet();
                    for (int k = 0; k < 50; k++) {
                        Thread.onSpinWait();
                    }
                } finally {
                    lock.readLock().unlock();
                }
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> reads.get() > 1_000);
        try {
            for (int w = 0; w < 20; w++) {
                assertTrue(lock.writeLock().tryLock(10, TimeUnit.SECONDS), "the writer starved");
                lock.writeLock().unlock();
            }
        } finally {
            stop.set(true);
        }
        TestThreads.joinAll(readers, Duration.ofSeconds(20), failures);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aQueuedWriterKeepsWaitingReadersOutUntilItHasWritten(Subject subject) throws Exception {
        ReadWriteLock lock = subject.create().lock();
        lock.readLock().lock();
        AtomicBoolean written = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writer = TestThreads.start("rw-queued-writer", 1, failures, i -> {
            lock.writeLock().lock();
            try {
                written.set(true);
            } finally {
                lock.writeLock().unlock();
            }
        });
        try {
            awaitParked(writer.get(0));
            // a reader that is prepared to wait queues behind the writer, as ReentrantReadWriteLock's readers do
            // when a writer heads the queue; one that barged in would keep the writer out for as long as readers
            // overlap
            assertFalse(elsewhere(() -> timed(lock.readLock(), 50)), "a waiting reader overtook a queued writer");
        } finally {
            lock.readLock().unlock();
        }
        TestThreads.joinAll(writer, Duration.ofSeconds(20), failures);
        assertTrue(written.get());
        assertTrue(availableElsewhere(lock.readLock()));
    }

    // ------------------------------------------------------------------------------- across a swap

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void holdsTakenBeforeASwapKeepExcludingAndAreReleasedCorrectly(Subject subject) throws Exception {
        Tested tested = subject.create();
        ReadWriteLock lock = tested.lock();
        // a reader holds across the swap: writers stay out until it leaves, then the new strategy is in force
        lock.readLock().lock();
        String first = tested.swap().get();
        assertFalse(availableElsewhere(lock.writeLock()), "a writer overlapped a reader of the old strategy");
        lock.readLock().unlock();
        assertEquals(first, strategy(lock), "the last reader did not complete the swap");
        assertTrue(availableElsewhere(lock.writeLock()));

        // a writer holds across the swap: everyone stays out until it leaves
        lock.writeLock().lock();
        String second = tested.swap().get();
        assertFalse(availableElsewhere(lock.readLock()), "a reader overlapped the writer of the old strategy");
        assertFalse(availableElsewhere(lock.writeLock()));
        lock.writeLock().unlock();
        assertEquals(second, strategy(lock));
        assertTrue(availableElsewhere(lock.readLock()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aWaiterSignalledAcrossSwapsReturnsHoldingTheWriteLock(Subject subject) throws Exception {
        Tested tested = subject.create();
        ReadWriteLock lock = tested.lock();
        Condition condition = lock.writeLock().newCondition();
        int[] waiting = {0};
        boolean[] signalled = {false};
        String[] strategyOnReturn = new String[2];
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("rw-swap-awaiter", 1, failures, i -> {
            lock.writeLock().lock();
            try {
                for (int round = 0; round < 2; round++) {
                    waiting[0]++;
                    while (!signalled[0]) {
                        condition.await();
                    }
                    signalled[0] = false;
                    strategyOnReturn[round] = strategy(lock);
                    assertEquals(1, writeHolds(lock));
                }
            } finally {
                lock.writeLock().unlock();
            }
        });
        awaitWaiting(lock, waiting);
        String first = tested.swap().get(); // the lock is free: done at once
        assertEquals(first, strategy(lock));
        lock.writeLock().lock();
        try {
            signalled[0] = true;
            condition.signal();
        } finally {
            lock.writeLock().unlock();
        }
        awaitWaiting(lock, waiting, 2);
        String second;
        lock.writeLock().lock();
        try {
            second = tested.swap().get(); // held: done by the final unlock
            signalled[0] = true;
            condition.signal();
        } finally {
            lock.writeLock().unlock();
        }
        TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);
        assertEquals(first, strategyOnReturn[0]);
        assertEquals(second, strategyOnReturn[1]);
        assertTrue(availableElsewhere(lock.writeLock()));
    }

    // ---------------------------------------------------------------------------------- helpers

    private static void awaitWaiting(ReadWriteLock lock, int[] waiting) {
        awaitWaiting(lock, waiting, 1);
    }

    /** Waits until the waiter has entered its {@code n}-th condition wait (it released the write lock). */
    private static void awaitWaiting(ReadWriteLock lock, int[] waiting, int n) {
        Awaitility.await("condition waiter")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(2))
                .until(() -> {
                    if (!lock.writeLock().tryLock()) {
                        return false;
                    }
                    try {
                        return waiting[0] >= n;
                    } finally {
                        lock.writeLock().unlock();
                    }
                });
    }

    private static void awaitParked(Thread t) {
        Awaitility.await("thread " + t.getName() + " waiting for the lock")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(2))
                .until(() -> t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING);
    }
}
