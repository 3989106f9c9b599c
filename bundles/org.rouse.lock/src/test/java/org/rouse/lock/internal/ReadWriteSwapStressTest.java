package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.SwappableReadWriteLock;

/**
 * Swaps read-write strategies and engines through the front every 10 ms while 16 real threads read (90 %) and
 * write (10 %) one lock with every acquire method: a writer must never be inside together with anyone.
 */
class ReadWriteSwapStressTest {

    private static final String[] STRATEGIES = {"adaptive", "jdk"};
    private static final long SWAP_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void strategyAndEngineSwapsEveryTenMillisNeverLetAWriterOverlapAnyone() throws Exception {
        LockFrontCore core = new LockFrontCore();
        StrategyLockEngine engine = new StrategyLockEngine(true);
        core.swapTo(engine);
        SwappableReadWriteLock lock = core.newView("stress.bundle").readWriteLock("hot");
        AtomicInteger readers = new AtomicInteger();
        int[] writers = {0};
        long[] counter = {0};
        AtomicInteger violations = new AtomicInteger();
        AtomicLong writes = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = TestThreads.start("rw-hammer", 16, failures, i -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                boolean write = random.nextInt(10) == 0;
                var l = write ? lock.writeLock() : lock.readLock();
                boolean got;
                switch (random.nextInt(3)) {
                    case 0 -> {
                        l.lock();
                        got = true;
                    }
                    case 1 -> got = l.tryLock();
                    default -> got = l.tryLock(random.nextInt(1, 500), TimeUnit.MICROSECONDS);
                }
                if (!got) {
                    continue;
                }
                try {
                    if (write) {
                        if (++writers[0] != 1 || readers.get() != 0) {
                            violations.incrementAndGet();
                        }
                        long read = counter[0];
                        Thread.onSpinWait();
                        counter[0] = read + 1;
                        writers[0]--;
                    } else {
                        readers.incrementAndGet();
                        if (writers[0] != 0) {
                            violations.incrementAndGet();
                        }
                        Thread.onSpinWait();
                        readers.decrementAndGet();
                    }
                } finally {
                    l.unlock();
                }
                (write ? writes : reads).incrementAndGet();
            }
        });

        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        int k = 0;
        String last = STRATEGIES[0];
        boolean withEngine = true;
        while (System.nanoTime() < end) {
            k++;
            if (k % 8 == 0) {
                withEngine = !withEngine; // to the fallback and back
                core.swapTo(withEngine ? engine : null);
            } else if (withEngine && (k % 64 == 4 || k % 64 == 5)) {
                // adaptive.read.write off, and on again at the next step, as DS delivers it: configure, then the
                // front's updated callback (to jdk and back when the last requested strategy is adaptive)
                setAdaptiveReadWrite(core, engine, k % 64 == 5);
            } else if (withEngine) {
                last = STRATEGIES[k % STRATEGIES.length];
                assertTrue(core.configure(last, null));
            }
            LockSupport.parkNanos(SWAP_PERIOD_NANOS); // pacing, not waiting for a result
        }
        if (!withEngine) {
            core.swapTo(engine);
        }
        setAdaptiveReadWrite(core, engine, true);
        stop.set(true);
        TestThreads.joinAll(workers, Duration.ofSeconds(60), failures);

        assertEquals(0, violations.get(), "a writer inside together with another thread");
        assertEquals(writes.get(), counter[0], "lost updates");
        assertTrue(reads.get() > 0 && writes.get() > 0, "reads " + reads + ", writes " + writes);
        long swaps = lock.statistics().swaps();
        assertTrue(swaps > 100, "swaps " + swaps + " of " + k + " requests");
        assertEquals(last, lock.strategy(), "the last requested swap was not completed");
        assertFalse(lock.isWriteLocked());
        assertTrue(lock.writeLock().tryLock(), "left held");
        lock.writeLock().unlock();
    }

    private static void setAdaptiveReadWrite(LockFrontCore core, StrategyLockEngine engine, boolean on) {
        assertTrue(engine.configure(StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS, 100, 1_000, on));
        core.swapTo(engine);
    }
}
