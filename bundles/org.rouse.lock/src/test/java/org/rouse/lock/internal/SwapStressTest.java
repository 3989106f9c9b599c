package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.SwappableLock;

/** Swaps strategies and engines through the front while real threads hammer one lock. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SwapStressTest {

    private static final String[] STRATEGIES = {"adaptive", "jdk", "fair", "spin-yield"};
    private static final long SWAP_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    /** Swapping is safe under load: 16 threads, a swap every 10 ms, 30 s, zero violations of mutual exclusion. */
    void strategySwapsEveryTenMillisKeepMutualExclusion() throws Exception {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(new StrategyLockEngine());
        SwappableLock lock = core.newView("stress.bundle").lock("hot");
        int[] inside = {0};
        long[] counter = {0};
        AtomicInteger violations = new AtomicInteger();
        AtomicLong operations = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = TestThreads.start("hammer", 16, failures, i -> {
            long mine = 0;
            while (!stopped(stop)) {
                lock.lock();
                try {
                    if (++inside[0] != 1) {
                        violations.incrementAndGet();
                    }
                    long read = counter[0];
                    Thread.onSpinWait();
                    counter[0] = read + 1;
                    inside[0]--;
                } finally {
                    lock.unlock();
                }
                mine++;
            }
            operations.addAndGet(mine);
        });

        int configured = swapFor(
                Duration.ofSeconds(30), k -> assertTrue(core.configure(STRATEGIES[k % STRATEGIES.length], null)));
        String last = STRATEGIES[configured % STRATEGIES.length];
        stop(stop);
        TestThreads.joinAll(workers, Duration.ofSeconds(60), failures);

        assertEquals(0, violations.get(), "threads inside the critical section together");
        assertEquals(operations.get(), counter[0], "lost updates");
        long swaps = lock.statistics().swaps();
        assertTrue(swaps > 0 && swaps <= configured, "swaps " + swaps + " of " + configured + " requests");
        assertEquals(last, lock.strategy(), "the last requested swap was not completed");
        assertFalse(lock.isLocked());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void conditionWaitersLoseNoSignalAcrossStrategyAndEngineSwaps() throws Exception {
        LockFrontCore core = new LockFrontCore();
        StrategyLockEngine first = new StrategyLockEngine();
        StrategyLockEngine second = new StrategyLockEngine();
        core.swapTo(first);
        SwappableLock lock = core.newView("stress.bundle").lock("queue");
        Condition notFull = lock.newCondition();
        Condition notEmpty = lock.newCondition();
        ArrayDeque<Long> buffer = new ArrayDeque<>();
        int capacity = 2;
        int pairs = 3;
        long poison = -1L;
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong produced = new AtomicLong();
        AtomicLong consumed = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        threads.addAll(TestThreads.start("producer", pairs, failures, p -> {
            long sum = 0;
            for (long item = 1; ; item++) {
                boolean last = stopped(stop);
                put(lock, notFull, notEmpty, buffer, capacity, last ? poison : item);
                if (last) {
                    break;
                }
                sum += item;
            }
            produced.addAndGet(sum);
        }));
        threads.addAll(TestThreads.start("consumer", pairs, failures, c -> {
            long sum = 0;
            for (long item; (item = take(lock, notFull, notEmpty, buffer)) != poison; ) {
                sum += item;
            }
            consumed.addAndGet(sum);
        }));

        StrategyLockEngine[] engines = {first, second, null};
        swapFor(Duration.ofSeconds(2), k -> {
            if (k % 4 == 3) {
                core.swapTo(engines[(k / 4) % 3]); // to the other engine, to none (fallback), back
            } else {
                core.configure(STRATEGIES[k % STRATEGIES.length], null);
            }
        });
        stop(stop);
        TestThreads.joinAll(threads, Duration.ofSeconds(60), failures);

        assertTrue(produced.get() > 0);
        assertEquals(produced.get(), consumed.get(), "items lost or duplicated");
        assertTrue(lock.statistics().swaps() > 0);
        assertTrue(buffer.isEmpty());
    }

    private static void put(
            SwappableLock lock, Condition notFull, Condition notEmpty, ArrayDeque<Long> buffer, int capacity, long item)
            throws InterruptedException {
        lock.lock();
        try {
            while (buffer.size() == capacity) {
                notFull.await();
            }
            buffer.addLast(item);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    private static long take(SwappableLock lock, Condition notFull, Condition notEmpty, ArrayDeque<Long> buffer)
            throws InterruptedException {
        lock.lock();
        try {
            while (buffer.isEmpty()) {
                notEmpty.await();
            }
            long item = buffer.removeFirst();
            notFull.signal();
            return item;
        } finally {
            lock.unlock();
        }
    }

    private interface Swap {
        void swap(int index);
    }

    /** Calls {@code swap(1), swap(2), ...} every 10 ms (pacing, not waiting for a result); returns the last index. */
    private static int swapFor(Duration duration, Swap swap) {
        long end = System.nanoTime() + duration.toNanos();
        int k = 0;
        while (System.nanoTime() < end) {
            swap.swap(++k);
            LockSupport.parkNanos(SWAP_PERIOD_NANOS);
        }
        return k;
    }

    private static boolean stopped(AtomicBoolean flag) {
        return flag.get();
    }

    private static void stop(AtomicBoolean flag) {
        flag.set(true);
    }
}
