package org.rouse.benchmarks.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.RoundWorkers;
import org.rouse.benchmarks.scenario.Variant;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.internal.StrategyLockEngine;

/**
 * 16 threads hammer one Rouse lock while the driver reconfigures its strategy every 10 ms, cycling through
 * {@code cycle} (a one-element cycle never swaps: the reference row). Counts acquisitions, swaps performed and
 * critical-section violations (two threads inside at once; must be 0).
 */
final class SwapVariant implements Variant {

    static final int THREADS = 16;
    private static final long SWAP_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final String name;
    private final String[] cycle;
    private final LockFrontCore core = new LockFrontCore();
    private final SwappableLock lock;
    private final long[] ops = new long[THREADS];
    private final RoundWorkers workers = new RoundWorkers("rouse-bench-swap", THREADS, this::work);
    /** Guarded by the lock. */
    private int inside;

    private long violations;
    private int next;

    SwapVariant(String name, String... cycle) {
        this.name = name;
        this.cycle = cycle;
        core.swapTo(new StrategyLockEngine());
        core.configure(cycle[0], new String[0]);
        lock = core.newView("benchmarks").lock("swapped");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return cycle.length == 1
                ? THREADS + " threads on a " + cycle[0] + " lock, no swaps"
                : THREADS + " threads; strategy reconfigured every 10 ms through " + String.join(" → ", cycle);
    }

    @Override
    public void open() {
        workers.start();
    }

    private void work(int index) {
        long n = 0;
        while (!workers.stopped()) {
            lock.lock();
            try {
                if (++inside != 1) {
                    violations++;
                }
                inside--;
            } finally {
                lock.unlock();
            }
            n++;
        }
        ops[index] = n;
    }

    @Override
    public Measurement runRound(Duration budget) throws Exception {
        long violationsBefore = violations;
        long swapsBefore = lock.statistics().swaps();
        long elapsed = workers.round(this::swapUntil, budget.toNanos());
        long total = 0;
        for (long n : ops) {
            total += n;
        }
        return Measurement.builder()
                .put(LockMetrics.THROUGHPUT, total * 1e9 / elapsed)
                .put(LockMetrics.SWAPS, lock.statistics().swaps() - swapsBefore)
                .put(LockMetrics.VIOLATIONS, violations - violationsBefore)
                .build();
    }

    /** Reconfigures the strategy every 10 ms until the deadline (pacing, not waiting for a result). */
    private void swapUntil(long deadline) {
        for (long now = System.nanoTime(); now < deadline; now = System.nanoTime()) {
            LockSupport.parkNanos(Math.min(SWAP_PERIOD_NANOS, deadline - now));
            if (cycle.length > 1) {
                next = (next + 1) % cycle.length;
                core.configure(cycle[next], new String[0]);
            }
        }
    }

    @Override
    public void close() throws Exception {
        workers.close();
    }
}
