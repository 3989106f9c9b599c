package org.rouse.api.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.spi.BargingMutex;
import org.rouse.lock.spi.LockPrimitive;

/** The facade and its swap protocol over the built-in fallback primitive (no engine). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FacadeWithFallbackTest {

    /** A fallback mutex reporting another strategy name, so swaps are visible. */
    private static class Named implements LockPrimitive {
        private final LockPrimitive mutex = FallbackMutex.create();
        private final String strategy;

        Named(String strategy) {
            this.strategy = strategy;
        }

        @Override
        public String strategy() {
            return strategy;
        }

        @Override
        public void lock() {
            mutex.lock();
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            mutex.lockInterruptibly();
        }

        @Override
        public boolean tryLock() {
            return mutex.tryLock();
        }

        @Override
        public boolean tryLockNanos(long nanos) throws InterruptedException {
            return mutex.tryLockNanos(nanos);
        }

        @Override
        public void unlock() {
            mutex.unlock();
        }

        @Override
        public boolean isLocked() {
            return mutex.isLocked();
        }
    }

    /**
     * A free fallback mutex whose next {@code tryLock()}s fail as if a release were still in flight: what a swapper
     * meets when a primitive that releases by a store is freed in the same instant (its hold not yet seen to end).
     */
    private static final class ReleaseInFlight extends Named {
        private final boolean releasesByStore;
        int failingTries;

        ReleaseInFlight(boolean releasesByStore) {
            super("in-flight");
            this.releasesByStore = releasesByStore;
        }

        @Override
        public boolean releasesByStore() {
            return releasesByStore;
        }

        @Override
        public boolean tryLock() {
            return failingTries-- <= 0 && super.tryLock();
        }
    }

    /** A barging mutex, which the facade calls through its dispatch hint, that yields while it waits; never queues. */
    private static final class NamedBarging extends BargingMutex {
        private final String strategy;

        NamedBarging(String strategy) {
            this.strategy = strategy;
        }

        @Override
        public String strategy() {
            return strategy;
        }

        @Override
        protected void lockContended() {
            while (!tryLock()) {
                Thread.yield();
            }
        }

        @Override
        protected void lockInterruptiblyContended() throws InterruptedException {
            tryLockNanos(Long.MAX_VALUE); // the deadline test below is overflow-safe: it never runs out
        }

        @Override
        public boolean tryLockNanos(long nanos) throws InterruptedException {
            long deadline = System.nanoTime() + nanos;
            while (!tryLock()) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                Thread.yield();
            }
            return true;
        }

        @Override
        protected void unlockContended() {
            throw new AssertionError("never queued");
        }

        @Override
        protected void releasedWhileQueued() {
            throw new AssertionError("never queued");
        }
    }

    private final LockFacade lock = new LockFacade("test", "test", new Named("a"));

    /** Whether another thread can take and release the lock now. */
    private static boolean lockAndUnlockElsewhere(LockFacade lock) throws Exception {
        FutureTask<Boolean> task = new FutureTask<>(() -> {
            if (!lock.tryLock()) {
                return false;
            }
            lock.unlock();
            return true;
        });
        Thread t = new Thread(task, "test-other");
        t.start();
        return task.get(20, TimeUnit.SECONDS);
    }

    private static boolean tryLockElsewhere(LockFacade lock) throws Exception {
        FutureTask<Boolean> task = new FutureTask<>(lock::tryLock);
        Thread t = new Thread(task, "test-other");
        t.start();
        return task.get(20, TimeUnit.SECONDS);
    }

    @Test
    void reentrantWithHoldCountsAndOwnerChecks() throws Exception {
        assertEquals("fallback", new LockFacade("x", "x", FallbackMutex.create()).strategy());
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
        lock.lock();
        lock.lock();
        assertEquals(2, lock.holdCount());
        assertFalse(tryLockElsewhere(lock));
        lock.unlock();
        assertTrue(lock.isLocked());
        lock.unlock();
        assertFalse(lock.isLocked());
        assertEquals(1, lock.statistics().acquisitions());
        assertEquals(0, lock.statistics().contendedAcquisitions());
    }

    @Test
    void aSwapOfAFreeLockHappensAtOnce() {
        lock.swapTo(new Named("b"), "b");
        assertEquals("b", lock.strategy());
        assertFalse(lock.swapPending());
        assertEquals(1, lock.statistics().swaps());
        assertEquals("b", lock.targetStrategy());
    }

    /**
     * A release store and a swap request in the same instant can miss each other (LockFacade notes, 4): the releaser's
     * re-read of {@code pending} may come before the request, the swapper's tryLock before the release. On a primitive
     * that releases by a store the swapper tries again for a while, so the swap is done by the time swapTo returns;
     * on any other it leaves the swap to the holder, as before, and it never waits without bound.
     */
    @Test
    void aSwapMeetingAReleaseStoreInFlightTriesAgainBriefly() {
        ReleaseInFlight byStore = new ReleaseInFlight(true);
        LockFacade facade = new LockFacade("in-flight", "in-flight", byStore);
        byStore.failingTries = 5;
        facade.swapTo(new Named("b"), "b");
        assertEquals("b", facade.strategy(), "the swapper's retries found the primitive free");
        assertFalse(facade.swapPending());

        ReleaseInFlight byVolatileStore = new ReleaseInFlight(false);
        LockFacade other = new LockFacade("volatile", "volatile", byVolatileStore);
        byVolatileStore.failingTries = 1;
        other.swapTo(new Named("b"), "b");
        assertTrue(other.swapPending(), "a volatile release sees the request itself: one failed try leaves it to it");

        ReleaseInFlight held = new ReleaseInFlight(true);
        LockFacade third = new LockFacade("held", "held", held);
        held.failingTries = Integer.MAX_VALUE; // a holder that stays
        third.swapTo(new Named("b"), "b");
        assertTrue(third.swapPending(), "the retries are bounded: a real holder's release performs the swap");
        int tries = Integer.MAX_VALUE - held.failingTries;
        assertTrue(tries > ReleaseStoreRetries.MIN_RETRIES, "one try and at least the minimum more: " + tries);
    }

    @Test
    void aSwapOfAHeldLockWaitsForTheFinalUnlockAndTheLatestRequestWins() throws Exception {
        lock.lock();
        lock.lock();
        lock.swapTo(new Named("b"), "b");
        Thread other = new Thread(() -> lock.swapTo(new Named("c"), "c"), "test-swapper");
        other.start();
        other.join(20_000);
        assertFalse(other.isAlive(), "swapTo must never block");
        assertEquals("a", lock.strategy());
        assertTrue(lock.swapPending());
        lock.unlock();
        assertEquals("a", lock.strategy());
        lock.unlock();
        assertEquals("c", lock.strategy());
        assertFalse(lock.swapPending());
        assertEquals(1, lock.statistics().swaps());
    }

    /**
     * The facade calls a BargingMutex through a hint written beside {@code current}: every swap to and from one, free
     * or held, must leave the hold on the new primitive and release the one actually held.
     */
    @Test
    void swapsToAndFromABargingMutexHoldAndReleaseThePrimitiveInForce() throws Exception {
        LockPrimitive[] sequence = {
            new NamedBarging("b1"), // held: from another primitive to a barging one
            new Named("q1"), // free: from a barging one to another
            new NamedBarging("b2"), // held: as b1
            new NamedBarging("b3"), // free: barging to barging
            new Named("q2"), // held: barging to another
            new NamedBarging("b4"), // free: another to barging
            new NamedBarging("b5") // held: barging to barging
        };
        List<LockPrimitive> seen = new ArrayList<>();
        for (int i = 0; i < sequence.length; i++) {
            LockPrimitive next = sequence[i];
            String strategy = next.strategy();
            boolean held = i % 2 == 0;
            if (held) {
                lock.lock();
            }
            lock.swapTo(next, strategy);
            if (held) {
                assertTrue(lock.swapPending());
                lock.unlock();
            }
            assertEquals(strategy, lock.strategy());
            seen.add(next);
            lock.lock();
            assertTrue(next.isLocked(), strategy + ": the hold is not on the primitive in force");
            lock.unlock();
            for (LockPrimitive p : seen) {
                assertFalse(p.isLocked(), p.strategy() + " left locked after swapping to " + strategy);
            }
            assertTrue(
                    lockAndUnlockElsewhere(lock), "another thread cannot take the lock after the swap to " + strategy);
        }
        assertEquals(sequence.length, lock.statistics().swaps());
    }

    @Test
    void aWaiterQueuedOnTheOldPrimitiveGetsTheLockAfterTheSwap() throws Exception {
        lock.lock();
        AtomicBoolean acquired = new AtomicBoolean();
        Thread waiter = new Thread(
                () -> {
                    lock.lock();
                    acquired.set(true);
                    lock.unlock();
                },
                "test-waiter");
        waiter.start();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> waiter.getState() == Thread.State.WAITING);
        lock.swapTo(new Named("b"), "b");
        lock.unlock();
        waiter.join(20_000);
        assertTrue(acquired.get());
        assertEquals("b", lock.strategy());
        assertEquals(1, lock.statistics().contendedAcquisitions());
        assertTrue(lock.statistics().longestWaitNanos() > 0);
    }

    @Test
    void conditionSignalAcrossASwapIsNotLost() throws Exception {
        Condition ready = lock.newCondition();
        CountDownLatch holding = new CountDownLatch(1);
        AtomicInteger holdsAfter = new AtomicInteger(-1);
        Thread waiter = new Thread(
                () -> {
                    lock.lock();
                    try {
                        holding.countDown();
                        ready.awaitUninterruptibly();
                        holdsAfter.set(lock.holdCount());
                    } finally {
                        lock.unlock();
                    }
                },
                "test-awaiter");
        waiter.start();
        holding.await();
        lock.lock(); // only after the waiter released the lock inside await
        try {
            lock.swapTo(new Named("b"), "b");
            ready.signal();
        } finally {
            lock.unlock();
        }
        waiter.join(20_000);
        assertFalse(waiter.isAlive());
        assertEquals(1, holdsAfter.get());
        assertEquals("b", lock.strategy());
    }

    @Test
    void awaitGivesUpEveryReentrantHoldAndRestoresThemAll() throws Exception {
        Condition condition = lock.newCondition();
        lock.lock();
        lock.lock();
        lock.lock();
        try {
            assertTrue(condition.awaitNanos(TimeUnit.MILLISECONDS.toNanos(5)) <= 0);
            assertEquals(3, lock.holdCount());
        } finally {
            lock.unlock();
        }
        lock.unlock();
        assertEquals(1, lock.holdCount());
        assertTrue(lock.isLocked());
        lock.unlock();
        assertEquals(0, lock.holdCount());
        assertFalse(lock.isLocked(), "the last of the restored holds frees the lock");
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void conditionTimeoutsAndMisuse() throws Exception {
        Condition condition = lock.newCondition();
        assertThrows(IllegalMonitorStateException.class, condition::signal);
        assertThrows(IllegalMonitorStateException.class, () -> condition.awaitNanos(1));
        lock.lock();
        try {
            assertTrue(condition.awaitNanos(TimeUnit.MILLISECONDS.toNanos(5)) <= 0);
            assertEquals(1, lock.holdCount());
        } finally {
            lock.unlock();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void directSwapsUnderSixteenThreadsKeepMutualExclusion() throws Exception {
        int[] inside = {0};
        long[] counter = {0};
        AtomicInteger violations = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        long[] done = new long[16];
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            int index = i;
            Thread t = new Thread(
                    () -> {
                        try {
                            long mine = 0;
                            while (!stop.get()) {
                                if (mine % 3 == 0) {
                                    lock.lock();
                                } else if (!lock.tryLock(1, TimeUnit.SECONDS)) {
                                    continue;
                                }
                                try {
                                    if (++inside[0] != 1) {
                                        violations.incrementAndGet();
                                    }
                                    counter[0]++;
                                    inside[0]--;
                                } finally {
                                    lock.unlock();
                                }
                                mine++;
                            }
                            done[index] = mine;
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    },
                    "test-hammer-" + i);
            workers.add(t);
            t.start();
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        int k = 0;
        while (System.nanoTime() < end) {
            k++;
            lock.swapTo(k % 2 == 0 ? new Named("s" + k) : new NamedBarging("s" + k), "s" + k); // both dispatches
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // pacing the swaps, not waiting for a result
        }
        stop.set(true);
        for (Thread t : workers) {
            t.join(20_000);
            assertFalse(t.isAlive(), () -> Arrays.toString(t.getStackTrace()));
        }
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(0, violations.get());
        assertEquals(Arrays.stream(done).sum(), counter[0]);
        assertEquals("s" + k, lock.strategy(), "the last requested swap was not completed");
        assertTrue(lock.statistics().swaps() > 0);
    }
}
