package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rouse.lock.spi.LockPrimitive;

/** What {@code adaptive} and {@code fair} promise beyond the Lock contract: hand-off, FIFO, no stranded waiter. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QueuedStrategiesTest {

    static Stream<String> strategies() {
        return new StrategyLockEngine().strategies().stream();
    }

    @Test
    void fairGrantsInArrivalOrderAndNobodyOvertakes() throws Exception {
        LockPrimitive lock = new StrategyLockEngine().newPrimitive("fair");
        lock.lock();
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int index = i;
            Thread t = TestThreads.start("fifo-" + i, 1, failures, ignored -> {
                        lock.lock();
                        order.add(index);
                        lock.unlock();
                    })
                    .get(0);
            TestThreads.awaitInside(t, "LockSupport", "park"); // queued before the next one arrives
            waiters.add(t);
        }
        lock.unlock();
        TestThreads.joinAll(waiters, Duration.ofSeconds(20), failures);
        assertEquals(List.of(0, 1, 2, 3), order);
        assertEquals(4, lock.handoffs(), "every queued thread got the lock by hand-off");
        assertFalse(lock.isLocked());
    }

    @Test
    void adaptiveHandsTheLockToAQueuedThreadOnceItsFairnessTimerExpires() throws Exception {
        StrategyLockEngine engine = new StrategyLockEngine();
        assertTrue(engine.configure(StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS, 0, 10));
        LockPrimitive lock = engine.newPrimitive("adaptive");
        lock.lock();
        AtomicBoolean got = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        long queued = System.nanoTime();
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> waiter = TestThreads.start("old-waiter", 1, failures, i -> {
            lock.lock();
            got.set(true);
            release.await();
            lock.unlock();
        });
        TestThreads.awaitInside(waiter.get(0), "LockSupport", "park");
        while (System.nanoTime() - queued < TimeUnit.MICROSECONDS.toNanos(100)) {
            Thread.onSpinWait(); // let the lock's timer (armed within 10 µs) expire (pacing, not waiting for a result)
        }
        lock.unlock();
        assertEquals(1, lock.handoffs(), "the unlock handed the lock to the queued thread");
        // it went straight to the waiter, who keeps it until released: it was never free for this barger
        assertFalse(lock.tryLock() && unlockAnd(lock), "a barger got the lock due to the queued thread");
        release.countDown();
        TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);
        assertTrue(got.get());
        assertEquals(1, lock.handoffs());
        assertTrue(lock.parks() >= 1);
        assertFalse(lock.isLocked());
    }

    @Test
    void adaptiveUncontendedNeverSpinsParksOrHandsOff() {
        LockPrimitive lock = new StrategyLockEngine().newPrimitive("adaptive");
        for (int i = 0; i < 10_000; i++) {
            lock.lock();
            lock.unlock();
        }
        assertEquals(0, lock.spins());
        assertEquals(0, lock.parks());
        assertEquals(0, lock.handoffs());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void timeoutsAndInterruptsNeverStrandWaiters(String strategy) throws Exception {
        StrategyLockEngine engine = new StrategyLockEngine();
        assertTrue(engine.configure(StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS, 20, 200));
        LockPrimitive lock = engine.newPrimitive(strategy);
        int[] inside = {0};
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger acquired = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        int threads = 8;
        int rounds = 3_000;
        List<Thread> workers = TestThreads.start("mixed", threads, failures, i -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int r = 0; r < rounds; r++) {
                boolean got;
                switch ((i + r) % 4) {
                    case 0 -> {
                        try {
                            got = lock.tryLockNanos(random.nextLong(1_000, 50_000));
                        } catch (InterruptedException e) {
                            got = false;
                        }
                    }
                    case 1 -> got = lock.tryLock();
                    case 2 -> {
                        try {
                            lock.lockInterruptibly();
                            got = true;
                        } catch (InterruptedException e) {
                            got = false;
                        }
                    }
                    default -> {
                        lock.lock();
                        got = true;
                    }
                }
                if (got) {
                    if (++inside[0] != 1) {
                        violations.incrementAndGet();
                    }
                    Thread.onSpinWait();
                    inside[0]--;
                    acquired.incrementAndGet();
                    lock.unlock();
                }
            }
            Thread.interrupted();
        });
        // interrupt the workers now and then while they wait
        for (int k = 0; k < 200 && workers.stream().anyMatch(Thread::isAlive); k++) {
            workers.get(k % threads).interrupt();
            Thread.onSpinWait();
        }
        TestThreads.joinAll(workers, Duration.ofSeconds(50), failures); // a stranded waiter never finishes
        assertEquals(0, violations.get(), "threads inside the critical section together");
        assertTrue(acquired.get() >= threads * rounds / 4, "every lock() at least");
        assertFalse(lock.isLocked());
        assertTrue(lock.tryLock(), "the lock is usable after every cancellation");
        lock.unlock();
    }

    @Test
    void engineCountersReachTheFacadeAndSurviveASwap() throws Exception {
        org.rouse.api.internal.lock.LockFrontCore core = new org.rouse.api.internal.lock.LockFrontCore();
        core.swapTo(new StrategyLockEngine());
        assertTrue(core.configure("fair", new String[0]));
        org.rouse.lock.SwappableLock lock = core.newView("stats.bundle").lock("counted");
        lock.lock();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiter = TestThreads.start("counted-waiter", 1, failures, i -> {
            lock.lock();
            lock.unlock();
        });
        TestThreads.awaitInside(waiter.get(0), "LockSupport", "park");
        lock.unlock();
        TestThreads.joinAll(waiter, Duration.ofSeconds(20), failures);
        assertEquals(1, lock.statistics().handoffs());
        assertTrue(lock.statistics().parks() >= 1);

        assertTrue(core.configure("jdk", new String[0]));
        assertEquals("jdk", lock.strategy());
        assertEquals(1, lock.statistics().handoffs(), "the fair primitive's count survives the swap");
        assertTrue(lock.statistics().parks() >= 1);
        assertEquals(1, lock.statistics().contendedAcquisitions());
    }

    private static boolean unlockAnd(LockPrimitive lock) {
        lock.unlock();
        return true;
    }
}
