package org.rouse.benchmarks.lock;

import java.time.Duration;
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

    private final String name;
    private final StrategyCycle cycle;
    private final LockFrontCore core = new LockFrontCore();
    private final SwappableLock lock;
    private final long[] ops = new long[THREADS];
    private final RoundWorkers workers = new RoundWorkers("rouse-bench-swap", THREADS, this::work);
    /** Guarded by the lock. */
    private int inside;

    private long violations;

    SwapVariant(String name, String... cycle) {
        this.name = name;
        core.swapTo(new StrategyLockEngine());
        this.cycle = new StrategyCycle(core, cycle);
        lock = core.newView("benchmarks").lock("swapped");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return cycle.swaps()
                ? THREADS + " threads; strategy reconfigured every 10 ms through " + cycle.describe()
                : THREADS + " threads on a " + cycle.first() + " lock, no swaps";
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
        long elapsed = workers.round(cycle::swapUntil, budget.toNanos());
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

    @Override
    public void close() throws Exception {
        workers.close();
    }
}
