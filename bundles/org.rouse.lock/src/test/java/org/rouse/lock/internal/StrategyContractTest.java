package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.SwappableLock;

/** The {@link java.util.concurrent.locks.Lock} contract of facades over every strategy of the engine. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StrategyContractTest {

    static Stream<String> strategies() {
        return new StrategyLockEngine().strategies().stream();
    }

    private static SwappableLock newLock(String strategy) {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(new StrategyLockEngine());
        assertTrue(core.configure(strategy, new String[0]));
        SwappableLock lock = core.newView("test.bundle").newLock();
        assertEquals(strategy, lock.strategy());
        return lock;
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void mutualExclusionUnderSixteenThreads(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
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
        assertEquals(threads * rounds, lock.statistics().acquisitions());
        assertFalse(lock.isLocked());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void reentrancyHoldCountsAndTryLock(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
        lock.lock();
        assertTrue(lock.tryLock());
        lock.lockInterruptibly();
        assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
        assertEquals(4, lock.holdCount());
        assertTrue(lock.isHeldByCurrentThread());
        assertTrue(lock.isLocked());
        assertFalse(TestThreads.tryLockElsewhere(lock), "another thread got a held lock");
        assertEquals(0, (int) TestThreads.onOtherThread(lock::holdCount));

        lock.unlock();
        lock.unlock();
        lock.unlock();
        assertEquals(1, lock.holdCount());
        assertFalse(TestThreads.tryLockElsewhere(lock), "released before the last unlock");
        lock.unlock();
        assertEquals(0, lock.holdCount());
        assertFalse(lock.isHeldByCurrentThread());
        assertFalse(lock.isLocked());

        assertTrue(TestThreads.onOtherThread(() -> {
            boolean got = lock.tryLock();
            if (got) {
                lock.unlock();
            }
            return got;
        }));
        assertEquals(2, lock.statistics().acquisitions(), "reentrant acquisitions must not count");
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void timedTryLockTimesOut(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
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
            assertFalse(TestThreads.onOtherThread(() -> lock.tryLock(0, TimeUnit.SECONDS)));
        } finally {
            lock.unlock();
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void timedTryLockHonoursInterrupt(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
        assertInterruptedWhileWaiting(lock, "tryLockNanos", () -> lock.tryLock(10, TimeUnit.MINUTES));
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void lockInterruptiblyHonoursInterrupt(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
        assertInterruptedWhileWaiting(lock, "lockInterruptibly", () -> {
            lock.lockInterruptibly();
            return true;
        });
        // interrupted before the call: throws at once, even when free
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::lockInterruptibly);
        assertFalse(Thread.interrupted());
        assertFalse(lock.isLocked());
    }

    private interface Acquire {
        boolean acquire() throws InterruptedException;
    }

    private static void assertInterruptedWhileWaiting(SwappableLock lock, String primitiveMethod, Acquire acquire)
            throws Exception {
        lock.lock();
        try {
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread waiter = new Thread(
                    () -> {
                        try {
                            outcome.set(acquire.acquire() ? "acquired" : "timed out");
                        } catch (InterruptedException e) {
                            outcome.set(e);
                        }
                    },
                    "test-waiter");
            waiter.setDaemon(true);
            waiter.start();
            TestThreads.awaitInside(waiter, "Mutex", primitiveMethod);
            waiter.interrupt();
            waiter.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(waiter.isAlive(), "the interrupt was ignored");
            assertInstanceOf(InterruptedException.class, outcome.get());
            assertEquals(1, lock.holdCount());
        } finally {
            lock.unlock();
        }
        assertFalse(lock.isLocked());
        assertTrue(lock.tryLock(), "a failed waiter left the lock unusable");
        lock.unlock();
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void anInterruptedThreadStillLocksAndKeepsItsInterruptStatus(String strategy) {
        SwappableLock lock = newLock(strategy);
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
        assertEquals(2, lock.statistics().acquisitions());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void unlockByNonOwnerThrows(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
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
            assertTrue(lock.isHeldByCurrentThread(), "a stranger's unlock released the lock");
        } finally {
            lock.unlock();
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void conditionBoundedBufferLosesNoSignal(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
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

    @ParameterizedTest
    @MethodSource("strategies")
    void awaitReleasesEveryHoldAndRestoresIt(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
        Condition condition = lock.newCondition();
        CountDownLatch holding = new CountDownLatch(1);
        AtomicInteger holdsAfterAwait = new AtomicInteger(-1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("awaiter", 1, failures, i -> {
            lock.lock();
            lock.lock();
            try {
                holding.countDown();
                condition.await();
                holdsAfterAwait.set(lock.holdCount());
            } finally {
                lock.unlock();
                lock.unlock();
            }
        });
        holding.await();
        lock.lock(); // succeeds only once the waiter has released both holds inside await
        try {
            condition.signal();
        } finally {
            lock.unlock();
        }
        TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);
        assertEquals(2, holdsAfterAwait.get());
        assertFalse(lock.isLocked());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void timedAwaitsReportTheTimeout(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
        Condition condition = lock.newCondition();
        lock.lock();
        lock.lock();
        try {
            assertTrue(condition.awaitNanos(TimeUnit.MILLISECONDS.toNanos(20)) <= 0L);
            assertEquals(2, lock.holdCount());
            assertFalse(condition.await(10, TimeUnit.MILLISECONDS));
            assertFalse(condition.awaitUntil(new java.util.Date(System.currentTimeMillis() - 1000)));
            assertTrue(condition.awaitNanos(0L) <= 0L);
            assertEquals(2, lock.holdCount());
        } finally {
            lock.unlock();
            lock.unlock();
        }
        assertFalse(lock.isLocked());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void awaitHonoursInterruptAndReacquires(String strategy) throws Exception {
        SwappableLock lock = newLock(strategy);
        Condition condition = lock.newCondition();
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicInteger holdsAfter = new AtomicInteger(-1);
        Thread waiter = new Thread(
                () -> {
                    lock.lock();
                    try {
                        condition.await();
                        outcome.set("returned");
                    } catch (InterruptedException e) {
                        outcome.set(e);
                    } finally {
                        holdsAfter.set(lock.holdCount());
                        lock.unlock();
                    }
                },
                "test-awaiter");
        waiter.setDaemon(true);
        waiter.start();
        TestThreads.awaitInside(waiter, "LockFacade", "awaitInternal");
        TestThreads.awaitInside(waiter, "LockSupport", "park");
        waiter.interrupt();
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive());
        assertInstanceOf(InterruptedException.class, outcome.get());
        assertEquals(1, holdsAfter.get(), "await must reacquire before throwing");
        assertFalse(lock.isLocked());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void conditionMethodsWithoutTheLockThrow(String strategy) {
        SwappableLock lock = newLock(strategy);
        Condition condition = lock.newCondition();
        assertThrows(IllegalMonitorStateException.class, condition::await);
        assertThrows(IllegalMonitorStateException.class, condition::awaitUninterruptibly);
        assertThrows(IllegalMonitorStateException.class, () -> condition.awaitNanos(1_000));
        assertThrows(IllegalMonitorStateException.class, () -> condition.await(1, TimeUnit.MILLISECONDS));
        assertThrows(IllegalMonitorStateException.class, condition::signal);
        assertThrows(IllegalMonitorStateException.class, condition::signalAll);
        assertFalse(lock.isLocked());
    }
}
