package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.SwappableLock;

/**
 * The {@link Lock} and {@link Condition} contracts, written from their Javadoc, run against a facade over every
 * strategy of the engine, against the built-in fallback mutex (no engine), and against the JDK's
 * {@link ReentrantLock} as the reference: whatever passes for {@code ReentrantLock} here is JDK behaviour, so the
 * suite cannot encode a wrong reading of the contract without failing on the reference.
 *
 * <p>Conditions may wake spuriously (the {@code Condition} Javadoc allows it), so every waiter here waits in a loop
 * on a state it reads under the lock, and a test never counts on a wake-up it did not cause.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockConformanceTest {

    /** A lock under test, and the swap of its strategy (none for the reference). */
    record Tested(Lock lock, Supplier<String> swap) {}

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

    private static final List<String> STRATEGIES = List.copyOf(new StrategyLockEngine().strategies());

    static Stream<Subject> subjects() {
        Stream<Subject> strategies = STRATEGIES.stream().map(s -> new Subject(s, () -> facade(s)));
        Stream<Subject> others = Stream.of(
                new Subject("fallback (no engine)", LockConformanceTest::fallbackFacade),
                new Subject("ReentrantLock (reference)", () -> new Tested(new ReentrantLock(), () -> null)));
        return Stream.concat(strategies, others);
    }

    /** A facade over {@code strategy}; its swap moves it to the next strategy of the engine. */
    private static Tested facade(String strategy) {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(new StrategyLockEngine());
        assertTrue(core.configure(strategy, new String[0]));
        SwappableLock lock = core.newView("test.bundle").newLock();
        assertEquals(strategy, lock.strategy());
        AtomicInteger position = new AtomicInteger(STRATEGIES.indexOf(strategy));
        return new Tested(lock, () -> {
            String next = STRATEGIES.get(position.incrementAndGet() % STRATEGIES.size());
            assertTrue(core.configure(next, new String[0]));
            return next;
        });
    }

    /** A facade on the built-in mutex; its swaps bring an engine (moving it to {@code adaptive}) and take it away. */
    private static Tested fallbackFacade() {
        LockFrontCore core = new LockFrontCore();
        SwappableLock lock = core.newView("test.bundle").newLock();
        assertEquals("fallback", lock.strategy());
        AtomicBoolean engine = new AtomicBoolean();
        return new Tested(
                lock,
                () -> { // engine and none in turn
                    boolean bring = !engine.get();
                    engine.set(bring);
                    core.swapTo(bring ? new StrategyLockEngine() : null);
                    return bring ? AdaptiveMutex.STRATEGY : "fallback";
                });
    }

    // ------------------------------------------------------------------ what Lock does not say, per kind

    private static int holdCount(Lock lock) {
        return lock instanceof SwappableLock s ? s.holdCount() : ((ReentrantLock) lock).getHoldCount();
    }

    private static boolean isLocked(Lock lock) {
        return lock instanceof SwappableLock s ? s.isLocked() : ((ReentrantLock) lock).isLocked();
    }

    private static boolean heldByCurrentThread(Lock lock) {
        return lock instanceof SwappableLock s
                ? s.isHeldByCurrentThread()
                : ((ReentrantLock) lock).isHeldByCurrentThread();
    }

    /** The strategy in force, or null for the reference. */
    private static String strategy(Lock lock) {
        return lock instanceof SwappableLock s ? s.strategy() : null;
    }

    // --------------------------------------------------------------------------- mutual exclusion

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void mutualExclusionUnderSixteenThreads(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        int threads = 16;
        int rounds = 2_000;
        int[] counter = {0};
        int[] inside = {0};
        AtomicInteger violations = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = TestThreads.start("exclusion", threads, failures, i -> {
            go.await();
            for (int r = 0; r < rounds; r++) {
                lock.lock();
                try {
                    if (++inside[0] != 1) {
                        violations.incrementAndGet();
                    }
                    int read = counter[0]; // a non-atomic read-modify-write with a window in it
                    Thread.onSpinWait();
                    counter[0] = read + 1;
                    inside[0]--;
                } finally {
                    lock.unlock();
                }
            }
        });
        go.countDown();
        TestThreads.joinAll(workers, Duration.ofSeconds(50), failures);

        assertEquals(0, violations.get(), "threads inside the critical section together");
        assertEquals(threads * rounds, counter[0], "lost updates");
        if (lock instanceof SwappableLock s) {
            assertEquals(threads * rounds, s.statistics().acquisitions());
        }
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void everyAcquireMethodExcludesUnderContentionWithTimeoutsAndInterrupts(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        int threads = 8;
        int rounds = 1_500;
        int[] inside = {0};
        long[] counter = {0};
        AtomicInteger violations = new AtomicInteger();
        AtomicLong acquired = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch started = new CountDownLatch(threads);
        List<Thread> workers = TestThreads.start("mixed", threads, failures, i -> {
            go.await();
            started.countDown(); // interrupts start once every worker is past the latch
            ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
            for (int r = 0; r < rounds; r++) {
                boolean got;
                try {
                    switch (random.nextInt(4)) {
                        case 0 -> {
                            lock.lock();
                            got = true;
                        }
                        case 1 -> {
                            lock.lockInterruptibly();
                            got = true;
                        }
                        case 2 -> got = lock.tryLock();
                        default -> got = lock.tryLock(random.nextInt(1, 200), TimeUnit.MICROSECONDS);
                    }
                } catch (InterruptedException e) {
                    continue; // allowed for the interruptible methods; the lock must not be held now
                } finally {
                    Thread.interrupted(); // lock() keeps the status: clear it so the next call starts clean
                }
                if (!got) {
                    assertEquals(0, holdCount(lock), "a failed tryLock left a hold");
                    continue;
                }
                try {
                    if (++inside[0] != 1) {
                        violations.incrementAndGet();
                    }
                    counter[0]++;
                    Thread.onSpinWait();
                    inside[0]--;
                } finally {
                    lock.unlock();
                }
                acquired.incrementAndGet();
            }
        });
        go.countDown();
        started.await();
        Thread interrupter = daemon("test-interrupter", () -> {
            ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
            while (running.get()) {
                workers.get(random.nextInt(threads)).interrupt();
                Thread.yield();
            }
        });
        try {
            TestThreads.joinAll(workers, Duration.ofSeconds(50), failures);
        } finally {
            running.set(false);
            interrupter.join();
        }
        assertEquals(0, violations.get(), "threads inside the critical section together");
        assertEquals(acquired.get(), counter[0], "lost updates");
        assertFalse(isLocked(lock), "left locked");
        assertTrue(lock.tryLock());
        lock.unlock();
    }

    // ---------------------------------------------------------------------------------- reentrancy

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void reentrantThroughEveryAcquireMethodAndReleasedOnlyByTheLastUnlock(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        lock.lock();
        assertTrue(lock.tryLock());
        lock.lockInterruptibly();
        assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
        assertTrue(lock.tryLock(0, TimeUnit.SECONDS), "a held reentrant lock is available to its owner at once");
        assertEquals(5, holdCount(lock));
        assertTrue(heldByCurrentThread(lock));
        assertTrue(isLocked(lock));
        assertFalse(TestThreads.tryLockElsewhere(lock), "another thread got a held lock");
        assertEquals(0, (int) TestThreads.onOtherThread(() -> holdCount(lock)));

        for (int i = 0; i < 4; i++) {
            lock.unlock();
        }
        assertEquals(1, holdCount(lock));
        assertFalse(TestThreads.tryLockElsewhere(lock), "released before the last unlock");
        lock.unlock();
        assertEquals(0, holdCount(lock));
        assertFalse(heldByCurrentThread(lock));
        assertFalse(isLocked(lock));
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "one unlock too many");

        assertTrue(TestThreads.onOtherThread(() -> {
            boolean got = lock.tryLock();
            if (got) {
                lock.unlock();
            }
            return got;
        }));
        if (lock instanceof SwappableLock s) {
            assertEquals(2, s.statistics().acquisitions(), "reentrant acquisitions must not count");
        }
    }

    // ------------------------------------------------------------------------- lockInterruptibly

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void lockInterruptiblyWithTheInterruptStatusSetThrowsEvenWhenFreeOrAlreadyHeld(Subject subject) {
        Lock lock = subject.create().lock();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::lockInterruptibly);
        assertFalse(Thread.interrupted(), "the interrupt status is cleared");
        assertFalse(isLocked(lock));

        lock.lock();
        try {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, lock::lockInterruptibly, "held by the caller: still throws");
            assertFalse(Thread.interrupted());
            assertEquals(1, holdCount(lock), "a failed reentrant acquisition adds no hold");
        } finally {
            lock.unlock();
        }
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void lockInterruptiblyInterruptedWhileWaitingThrowsAndLeavesTheLockAlone(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        assertInterruptedWhileWaiting(lock, () -> {
            lock.lockInterruptibly();
            return true;
        });
    }

    // --------------------------------------------------------------------------------------- tryLock

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void tryLockTakesAFreeLockWhateverTheInterruptStatusAndNeverWaits(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Thread.currentThread().interrupt();
        try {
            assertTrue(lock.tryLock(), "tryLock of a free lock must succeed whatever the interrupt status");
            lock.unlock();
            lock.lock();
            lock.unlock();
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status was swallowed");
        } finally {
            Thread.interrupted();
        }
        lock.lock();
        try {
            long start = System.nanoTime();
            assertFalse(TestThreads.tryLockElsewhere(lock));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "tryLock waited");
        } finally {
            lock.unlock();
        }
        if (lock instanceof SwappableLock s) {
            assertEquals(3, s.statistics().acquisitions());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void timedTryLockTimesOut(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        lock.lock();
        try {
            long timeout = TimeUnit.MILLISECONDS.toNanos(50);
            long[] elapsed = new long[1];
            boolean got = TestThreads.onOtherThread(() -> {
                long start = System.nanoTime();
                boolean result = lock.tryLock(timeout, TimeUnit.NANOSECONDS);
                elapsed[0] = System.nanoTime() - start;
                return result;
            });
            assertFalse(got);
            assertTrue(elapsed[0] >= timeout, "gave up early: " + elapsed[0] + " ns");
            assertTrue(elapsed[0] < TimeUnit.SECONDS.toNanos(20), "far too late: " + elapsed[0] + " ns");
            assertFalse(TestThreads.onOtherThread(() -> lock.tryLock(0, TimeUnit.SECONDS)), "zero: no wait");
            assertFalse(TestThreads.onOtherThread(() -> lock.tryLock(-1, TimeUnit.DAYS)), "negative: no wait");
            assertEquals(1, holdCount(lock));
        } finally {
            lock.unlock();
        }
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void timedTryLockSucceedsWhenTheLockIsReleasedInTime(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicInteger holdsInside = new AtomicInteger(-1);
        CountDownLatch done = new CountDownLatch(1);
        lock.lock();
        Thread waiter = daemon("test-timed-waiter", () -> {
            try {
                boolean got = lock.tryLock(30, TimeUnit.SECONDS);
                outcome.set(got);
                if (got) {
                    holdsInside.set(holdCount(lock));
                    lock.unlock();
                }
            } catch (InterruptedException e) {
                outcome.set(e);
            } finally {
                done.countDown();
            }
        });
        awaitWaiting(waiter);
        long released = System.nanoTime();
        lock.unlock();
        assertTrue(done.await(20, TimeUnit.SECONDS), "the waiter did not get the released lock");
        assertTrue(System.nanoTime() - released < TimeUnit.SECONDS.toNanos(20));
        assertEquals(Boolean.TRUE, outcome.get());
        assertEquals(1, holdsInside.get());
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void timedTryLockWithTheInterruptStatusSetThrowsEvenWhenFree(Subject subject) {
        Lock lock = subject.create().lock();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted(), "the interrupt status is cleared");
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void timedTryLockInterruptedWhileWaitingThrowsAndLeavesTheLockAlone(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        assertInterruptedWhileWaiting(lock, () -> lock.tryLock(10, TimeUnit.MINUTES));
    }

    private interface Acquire {
        boolean acquire() throws InterruptedException;
    }

    /** Holds the lock while another thread waits in {@code acquire}, interrupts it, and checks what followed. */
    private static void assertInterruptedWhileWaiting(Lock lock, Acquire acquire) throws Exception {
        lock.lock();
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicBoolean statusAfter = new AtomicBoolean(true);
        try {
            Thread waiter = daemon("test-waiter", () -> {
                try {
                    outcome.set(acquire.acquire() ? "acquired" : "timed out");
                } catch (InterruptedException e) {
                    outcome.set(e);
                    statusAfter.set(Thread.currentThread().isInterrupted());
                }
            });
            awaitWaiting(waiter);
            waiter.interrupt();
            waiter.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(waiter.isAlive(), "the interrupt was ignored");
            assertInstanceOf(InterruptedException.class, outcome.get());
            assertFalse(statusAfter.get(), "the interrupt status is cleared when InterruptedException is thrown");
            assertEquals(1, holdCount(lock));
            assertTrue(heldByCurrentThread(lock));
        } finally {
            lock.unlock();
        }
        assertFalse(isLocked(lock));
        assertTrue(
                TestThreads.onOtherThread(() -> {
                    boolean got = lock.tryLock();
                    if (got) {
                        lock.unlock();
                    }
                    return got;
                }),
                "a failed waiter left the lock unusable");
    }

    // ------------------------------------------------------------------------------------- unlock

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void unlockByANonOwnerThrowsAndReleasesNothing(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "nobody holds it");
        lock.lock();
        try {
            Object thrown = TestThreads.onOtherThread(() -> {
                try {
                    lock.unlock();
                    return "unlocked";
                } catch (IllegalMonitorStateException e) {
                    return e;
                }
            });
            assertInstanceOf(IllegalMonitorStateException.class, thrown);
            assertTrue(heldByCurrentThread(lock), "a stranger's unlock released the lock");
            assertFalse(TestThreads.tryLockElsewhere(lock));
        } finally {
            lock.unlock();
        }
        assertFalse(isLocked(lock));
    }

    // ---------------------------------------------------------------------------------- Condition

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void conditionMethodsWithoutTheLockThrow(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        assertConditionRefused(condition);
        lock.lock(); // held by another thread than the caller: refused just the same
        try {
            Object refused = TestThreads.onOtherThread(() -> {
                assertConditionRefused(condition);
                return "refused";
            });
            assertEquals("refused", refused);
            assertEquals(1, holdCount(lock));
        } finally {
            lock.unlock();
        }
        assertFalse(isLocked(lock));
    }

    private static void assertConditionRefused(Condition condition) {
        assertThrows(IllegalMonitorStateException.class, condition::await);
        assertThrows(IllegalMonitorStateException.class, condition::awaitUninterruptibly);
        assertThrows(IllegalMonitorStateException.class, () -> condition.awaitNanos(1_000));
        assertThrows(IllegalMonitorStateException.class, () -> condition.await(1, TimeUnit.MILLISECONDS));
        assertThrows(IllegalMonitorStateException.class, () -> condition.awaitUntil(new Date()));
        assertThrows(IllegalMonitorStateException.class, condition::signal);
        assertThrows(IllegalMonitorStateException.class, condition::signalAll);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void signalWakesAWaiterAndSignalAllWakesEveryOne(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        int waiters = 3;
        int[] tickets = {0};
        int[] waiting = {0};
        AtomicInteger returned = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = TestThreads.start("awaiter", waiters, failures, i -> {
            lock.lock();
            try {
                waiting[0]++;
                while (tickets[0] == 0) {
                    condition.await();
                }
                tickets[0]--;
                assertEquals(1, holdCount(lock));
            } finally {
                lock.unlock();
            }
            returned.incrementAndGet();
        });
        awaitAllWaiting(lock, waiting, waiters);

        lock.lock();
        try {
            tickets[0] = 1;
            condition.signal();
        } finally {
            lock.unlock();
        }
        Awaitility.await("one waiter woken by signal")
                .atMost(Duration.ofSeconds(20))
                .until(() -> returned.get() == 1);

        lock.lock();
        try {
            tickets[0] = waiters - 1;
            condition.signalAll();
        } finally {
            lock.unlock();
        }
        TestThreads.joinAll(threads, Duration.ofSeconds(20), failures);
        assertEquals(waiters, returned.get());
        assertFalse(isLocked(lock));
    }

    /** Returns once {@code count} threads counted themselves in {@code waiting} and released the lock in await. */
    private static void awaitAllWaiting(Lock lock, int[] waiting, int count) {
        Awaitility.await("waiters inside await")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(2))
                .until(() -> {
                    lock.lock(); // each waiter counts itself and releases the lock only inside await
                    try {
                        return waiting[0] == count;
                    } finally {
                        lock.unlock();
                    }
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void timedAwaitsTimeOutAfterTheirTimeAndKeepTheHolds(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        long timeout = TimeUnit.MILLISECONDS.toNanos(20);
        lock.lock();
        lock.lock();
        try {
            long start = System.nanoTime();
            assertTrue(condition.awaitNanos(timeout) <= 0L);
            assertTrue(System.nanoTime() - start >= timeout, "awaitNanos returned early");
            assertEquals(2, holdCount(lock));

            start = System.nanoTime();
            assertFalse(condition.await(timeout, TimeUnit.NANOSECONDS));
            assertTrue(System.nanoTime() - start >= timeout, "await(time, unit) returned early");

            start = System.nanoTime();
            assertFalse(condition.awaitUntil(new Date(System.currentTimeMillis() + 20)));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(10), "awaitUntil returned early");

            assertFalse(condition.awaitUntil(new Date(System.currentTimeMillis() - 1000)), "a past deadline");
            assertTrue(condition.awaitNanos(0L) <= 0L);
            assertTrue(condition.awaitNanos(-5L) <= 0L);
            assertFalse(condition.await(0, TimeUnit.SECONDS));
            assertEquals(2, holdCount(lock));
            assertTrue(heldByCurrentThread(lock));
        } finally {
            lock.unlock();
            lock.unlock();
        }
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void timedAwaitsSignalledInTimeReportThatTimeWasLeft(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        int[] waiting = {0};
        boolean[] signalled = {false};
        AtomicReference<Object> results = new AtomicReference<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("timed-awaiter", 1, failures, i -> {
            Object[] r = new Object[3];
            lock.lock();
            try {
                waiting[0]++;
                long left = TimeUnit.SECONDS.toNanos(30);
                while (!signalled[0] && left > 0) {
                    left = condition.awaitNanos(left);
                }
                r[0] = left;
                signalled[0] = false;
                waiting[0]++;
                boolean inTime = true;
                while (!signalled[0] && inTime) {
                    inTime = condition.await(30, TimeUnit.SECONDS);
                }
                r[1] = inTime;
                signalled[0] = false;
                waiting[0]++;
                inTime = true;
                Date deadline = new Date(System.currentTimeMillis() + 30_000);
                while (!signalled[0] && inTime) {
                    inTime = condition.awaitUntil(deadline);
                }
                r[2] = inTime;
            } finally {
                lock.unlock();
            }
            results.set(r);
        });
        for (int round = 1; round <= 3; round++) {
            awaitAllWaiting(lock, waiting, round);
            lock.lock();
            try {
                signalled[0] = true;
                condition.signal();
            } finally {
                lock.unlock();
            }
        }
        TestThreads.joinAll(waiter, Duration.ofSeconds(30), failures);
        Object[] r = (Object[]) results.get();
        assertTrue((Long) r[0] > 0L, "awaitNanos signalled in time returns the time left: " + r[0]);
        assertEquals(Boolean.TRUE, r[1], "await(time, unit) signalled in time");
        assertEquals(Boolean.TRUE, r[2], "awaitUntil signalled in time");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void awaitReleasesEveryHoldAndRestoresIt(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        CountDownLatch holding = new CountDownLatch(1);
        AtomicInteger holdsAfterAwait = new AtomicInteger(-1);
        boolean[] signalled = {false};
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("awaiter", 1, failures, i -> {
            lock.lock();
            lock.lock();
            try {
                holding.countDown();
                while (!signalled[0]) {
                    condition.await();
                }
                holdsAfterAwait.set(holdCount(lock));
            } finally {
                lock.unlock();
                lock.unlock();
            }
        });
        holding.await();
        lock.lock(); // succeeds only once the waiter has released both holds inside await
        try {
            signalled[0] = true;
            condition.signal();
        } finally {
            lock.unlock();
        }
        TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);
        assertEquals(2, holdsAfterAwait.get());
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void awaitWithTheInterruptStatusSetThrowsAtOnceStillHolding(Subject subject) {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        lock.lock();
        try {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, condition::await);
            assertFalse(Thread.interrupted());
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> condition.awaitNanos(TimeUnit.SECONDS.toNanos(30)));
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> condition.await(30, TimeUnit.SECONDS));
            Thread.currentThread().interrupt();
            assertThrows(
                    InterruptedException.class,
                    () -> condition.awaitUntil(new Date(System.currentTimeMillis() + 30_000)));
            assertFalse(Thread.interrupted());
            assertEquals(1, holdCount(lock));
            assertTrue(heldByCurrentThread(lock));
        } finally {
            lock.unlock();
        }
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void awaitInterruptedWhileWaitingReacquiresTheLockBeforeThrowing(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicInteger holdsAfter = new AtomicInteger(-1);
        int[] waiting = {0};
        Thread waiter = daemon("test-awaiter", () -> {
            lock.lock();
            lock.lock();
            try {
                waiting[0]++;
                condition.await();
                outcome.set("returned");
            } catch (InterruptedException e) {
                outcome.set(e);
            } finally {
                holdsAfter.set(holdCount(lock));
                lock.unlock();
                lock.unlock();
            }
        });
        awaitAllWaiting(lock, waiting, 1);
        lock.lock();
        try {
            waiter.interrupt();
            awaitReacquiring(waiter); // woken by the interrupt, it now waits for the lock we hold
            assertNull(outcome.get(), "await threw without the lock");
            assertTrue(waiter.isAlive());
        } finally {
            lock.unlock();
        }
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive());
        assertInstanceOf(InterruptedException.class, outcome.get());
        assertEquals(2, holdsAfter.get(), "await must reacquire every hold before throwing");
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void awaitSignalledThenInterruptedBeforeReacquiringReturnsNormallyWithTheStatusSet(Subject subject)
            throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        int[] waiting = {0};
        boolean[] signalled = {false};
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = daemon("test-signalled", () -> {
            lock.lock();
            try {
                waiting[0]++;
                while (!signalled[0]) {
                    condition.await();
                }
                outcome.set(Thread.currentThread().isInterrupted() ? "returned, interrupted" : "status lost");
            } catch (InterruptedException e) {
                outcome.set(e);
            } finally {
                lock.unlock();
            }
        });
        awaitAllWaiting(lock, waiting, 1);
        lock.lock();
        try {
            signalled[0] = true;
            condition.signal(); // from here the waiter only waits for the lock
            waiter.interrupt();
        } finally {
            lock.unlock();
        }
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive());
        assertEquals("returned, interrupted", outcome.get(), "an interrupt after the signal must not cancel it");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void awaitUninterruptiblyKeepsWaitingThroughAnInterruptAndReturnsWithTheStatusSet(Subject subject)
            throws Exception {
        Lock lock = subject.create().lock();
        Condition condition = lock.newCondition();
        int[] waiting = {0};
        boolean[] signalled = {false};
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = daemon("test-uninterruptible", () -> {
            lock.lock();
            try {
                waiting[0]++;
                while (!signalled[0]) {
                    condition.awaitUninterruptibly();
                }
                outcome.set(Thread.currentThread().isInterrupted() ? "interrupted" : "status lost");
            } finally {
                lock.unlock();
            }
        });
        awaitAllWaiting(lock, waiting, 1);
        lock.lock();
        try {
            waiter.interrupt();
            // it consumes the interrupt and parks again, still in await: not in an acquisition of the lock we hold
            Awaitility.await("the waiter back in awaitUninterruptibly")
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(2))
                    .until(() -> !waiter.isInterrupted() && parked(waiter) && !acquiring(waiter));
            assertNull(outcome.get());
            signalled[0] = true;
            condition.signal();
        } finally {
            lock.unlock();
        }
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive());
        assertEquals("interrupted", outcome.get(), "awaitUninterruptibly returns with the interrupt status set");
        assertFalse(isLocked(lock));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void conditionBoundedBufferLosesNoSignal(Subject subject) throws Exception {
        Lock lock = subject.create().lock();
        Condition notFull = lock.newCondition();
        Condition notEmpty = lock.newCondition();
        ArrayDeque<Integer> buffer = new ArrayDeque<>();
        int capacity = 3;
        int perThread = 3_000;
        int pairs = 2;
        AtomicLong consumedSum = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> producers = TestThreads.start("producer", pairs, failures, p -> {
            for (int i = 1; i <= perThread; i++) {
                lock.lock();
                try {
                    while (buffer.size() == capacity) {
                        notFull.await();
                    }
                    buffer.addLast(i);
                    notEmpty.signal();
                } finally {
                    lock.unlock();
                }
            }
        });
        List<Thread> consumers = TestThreads.start("consumer", pairs, failures, c -> {
            for (int i = 0; i < perThread; i++) {
                int item;
                lock.lock();
                try {
                    while (buffer.isEmpty()) {
                        notEmpty.await();
                    }
                    item = buffer.removeFirst();
                    notFull.signal();
                } finally {
                    lock.unlock();
                }
                consumedSum.addAndGet(item);
            }
        });
        TestThreads.joinAll(producers, Duration.ofSeconds(50), failures);
        TestThreads.joinAll(consumers, Duration.ofSeconds(50), failures);
        long expected = (long) pairs * perThread * (perThread + 1) / 2;
        assertEquals(expected, consumedSum.get());
        assertTrue(buffer.isEmpty());
    }

    // ------------------------------------------------------------------------- across a swap

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aWaiterSignalledAfterASwapReturnsHoldingTheLockUnderTheNewStrategy(Subject subject) throws Exception {
        Tested tested = subject.create();
        Lock lock = tested.lock();
        Condition condition = lock.newCondition();
        int[] waiting = {0};
        boolean[] signalled = {false};
        String[] strategyOnReturn = new String[2];
        AtomicInteger holdsOnReturn = new AtomicInteger(-1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("swap-awaiter", 1, failures, i -> {
            lock.lock();
            lock.lock();
            try {
                for (int round = 0; round < 2; round++) {
                    waiting[0]++;
                    while (!signalled[0]) {
                        condition.await();
                    }
                    signalled[0] = false;
                    strategyOnReturn[round] = strategy(lock);
                }
                holdsOnReturn.set(holdCount(lock));
            } finally {
                lock.unlock();
                lock.unlock();
            }
        });

        // 1: swapped while the lock is free (the waiter released it inside await): the swap is done at once
        awaitAllWaiting(lock, waiting, 1);
        String first = tested.swap().get();
        assertEquals(first, strategy(lock));
        lock.lock();
        try {
            signalled[0] = true;
            condition.signal();
        } finally {
            lock.unlock();
        }

        // 2: swapped while the signaller holds the lock: the swap is done by its final unlock
        awaitAllWaiting(lock, waiting, 2);
        String second;
        lock.lock();
        try {
            second = tested.swap().get();
            signalled[0] = true;
            condition.signal();
            assertTrue(heldByCurrentThread(lock), "a swap never takes a held lock away");
        } finally {
            lock.unlock();
        }
        TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);

        assertEquals(2, holdsOnReturn.get());
        assertEquals(Arrays.asList(first, second), Arrays.asList(strategyOnReturn));
        assertEquals(second, strategy(lock));
        assertFalse(isLocked(lock));
        assertTrue(lock.tryLock(), "usable after the swaps");
        lock.unlock();
    }

    // -------------------------------------------------------------------------------- helpers

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Whether {@code t} is parked, or (spin-yield, which never parks) inside its spin loop. */
    private static boolean parked(Thread t) {
        Thread.State state = t.getState();
        return state == Thread.State.WAITING
                || state == Thread.State.TIMED_WAITING
                || Arrays.stream(t.getStackTrace())
                        .anyMatch(f -> f.getClassName().contains("SpinYieldMutex"));
    }

    /**
     * Whether {@code t} is inside an acquisition of the lock itself rather than in a condition wait: every kind
     * acquires through a method named {@code acquire...} (AQS, the facade), and none waits for a signal in one.
     */
    private static boolean acquiring(Thread t) {
        return Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getMethodName().startsWith("acquire"));
    }

    /** Waits until {@code t} waits for the lock (parked, or spinning for spin-yield). */
    private static void awaitWaiting(Thread t) {
        Awaitility.await("thread " + t.getName() + " waiting for the lock")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(2))
                .until(() -> parked(t));
    }

    /** Waits until {@code t}, woken from a condition wait, waits to reacquire the lock. */
    private static void awaitReacquiring(Thread t) {
        Awaitility.await("thread " + t.getName() + " reacquiring the lock")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(2))
                .until(() -> parked(t) && acquiring(t));
    }
}
