package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many producers against a pool whose idle timeout is 1 ms, so that hand-offs keep racing workers whose deadline is
 * passing: every task must run exactly once, the pool never has more than its maximum of threads, and threads
 * retire and are re-created throughout. The pool's invariants are checked while it runs (they hold at every unlock of
 * its lock) and at the quiescent points after the last task and after termination.
 */
class WorkerPoolStressTest {

    private static final int CORE = 1;
    private static final int MAX = 4;
    private static final int PRODUCERS = 6;
    private static final int TASKS_PER_PRODUCER = 6_000;

    @ParameterizedTest(name = "most recently idle first: {0}, demand changing: {1}")
    @CsvSource({"true, false", "false, false", "true, true"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyTaskRunsExactlyOnceAndThreadsNeverExceedTheMaximum(boolean mostRecentlyIdleFirst, boolean withDemand)
            throws Exception {
        EngineSettings settings = EngineSettings.DEFAULTS
                .withPool(CORE, MAX, 60)
                .withQueueCapacity(8)
                .withMostRecentlyIdleFirst(mostRecentlyIdleFirst);
        // with demand: a count of recently active channels that producers change at random, beyond the maximum too,
        // so idle workers are started in advance, retire after 1 ms and are started again while tasks flow
        AtomicInteger demand = new AtomicInteger();
        WorkerPool pool = new WorkerPool(settings, "stress-worker-", TimeUnit.MILLISECONDS.toNanos(1), demand::get);
        int total = PRODUCERS * TASKS_PER_PRODUCER;
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        CountDownLatch allRan = new CountDownLatch(total);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        AtomicInteger mostThreads = new AtomicInteger();
        AtomicLong rejections = new AtomicLong();
        AtomicReference<IllegalStateException> broken = new AtomicReference<>();
        CyclicBarrier go = new CyclicBarrier(PRODUCERS);
        List<Thread> producers = new ArrayList<>();
        try {
            for (int p = 0; p < PRODUCERS; p++) {
                int first = p * TASKS_PER_PRODUCER;
                Thread producer = new Thread(
                        () -> {
                            await(go);
                            ThreadLocalRandom random = ThreadLocalRandom.current();
                            for (int i = first; i < first + TASKS_PER_PRODUCER; i++) {
                                int id = i;
                                Runnable task = () -> {
                                    mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                                    runs.incrementAndGet(id);
                                    running.decrementAndGet();
                                    allRan.countDown();
                                };
                                while (true) {
                                    try {
                                        pool.execute(task);
                                        break;
                                    } catch (RejectedExecutionException saturated) {
                                        rejections.incrementAndGet();
                                        Thread.yield();
                                    }
                                }
                                if (random.nextInt(64) == 0) {
                                    if (withDemand) {
                                        demand.set(random.nextInt(MAX + 3));
                                    }
                                    mostThreads.accumulateAndGet(pool.threads(), Math::max);
                                    try {
                                        pool.checkInvariants();
                                    } catch (IllegalStateException e) {
                                        broken.compareAndSet(null, e);
                                    }
                                    // a pause around the 1 ms idle timeout lets workers reach their deadline
                                    LockSupport.parkNanos(random.nextLong(500_000, 2_000_000));
                                }
                            }
                        },
                        "stress-producer-" + p);
                producer.start();
                producers.add(producer);
            }
            for (Thread producer : producers) {
                producer.join();
            }
            assertTrue(allRan.await(30, TimeUnit.SECONDS), "every accepted task ran");
            if (broken.get() != null) {
                throw broken.get();
            }
            pool.checkInvariants();
            System.out.printf(
                    "WorkerPoolStressTest(mru=%s, demand=%s): %d tasks, threads created %d (started in advance %d),"
                            + " retired %d, rejections %d%n",
                    mostRecentlyIdleFirst,
                    withDemand,
                    total,
                    pool.threadsCreated(),
                    pool.threadsGrownForDemand(),
                    pool.threadsRetired(),
                    rejections.get());
            if (withDemand) {
                assertTrue(pool.threadsGrownForDemand() > 0, "workers were started in advance for the demand");
            }
            for (int i = 0; i < total; i++) {
                assertEquals(1, runs.get(i), "task " + i + " ran exactly once");
            }
            assertTrue(mostRunning.get() <= MAX, "at most " + MAX + " tasks at once, saw " + mostRunning.get());
            assertTrue(mostThreads.get() <= MAX, "at most " + MAX + " threads, saw " + mostThreads.get());
            assertTrue(pool.threadsRetired() > 0, "workers retired during the run");
            assertTrue(pool.threadsCreated() > MAX, "workers were re-created: " + pool.threadsCreated());
            // alive == created - retired, all three read in one critical section: workers still retire (1 ms idle
            // timeout) and the grower may still top up, so three separate reads can straddle a change
            pool.checkInvariants();
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
        pool.checkInvariants();
        assertEquals(total, pool.completed());
        assertEquals(0, pool.threads());
        assertEquals(pool.threadsCreated(), pool.threadsRetired());
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
