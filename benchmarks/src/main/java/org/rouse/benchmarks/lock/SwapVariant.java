package org.rouse.benchmarks.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.benchmarks.scenario.Measurement;
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
    private final List<Thread> workers = new ArrayList<>();
    private final long[] ops = new long[THREADS];
    private final CyclicBarrier start = new CyclicBarrier(THREADS + 1);
    private final CyclicBarrier end = new CyclicBarrier(THREADS + 1);
    /** Ends a round; written by the driver. */
    private volatile boolean stop;
    /** Ends the workers; written by close(). */
    private volatile boolean closed;
    /** Guarded by the lock. */
    private int inside;

    private long violations;
    private int next;

    SwapVariant(String name, String... cycle) {
        this.name = name;
        this.cycle = cycle;
        core.useEngine(new StrategyLockEngine());
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
        for (int i = 0; i < THREADS; i++) {
            int index = i;
            Thread t = new Thread(() -> work(index), "rouse-bench-swap-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
    }

    private void work(int index) {
        try {
            for (; ; ) {
                start.await();
                if (closed) {
                    return;
                }
                long n = 0;
                while (!stop) {
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
                end.await();
            }
        } catch (Exception e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Measurement runRound(Duration budget) throws Exception {
        stop = false;
        long violationsBefore = violations;
        long swapsBefore = lock.statistics().swaps();
        start.await(30, TimeUnit.SECONDS);
        long t0 = System.nanoTime();
        long deadline = t0 + budget.toNanos();
        for (long now = t0; now < deadline; now = System.nanoTime()) {
            LockSupport.parkNanos(Math.min(SWAP_PERIOD_NANOS, deadline - now));
            if (cycle.length > 1) {
                next = (next + 1) % cycle.length;
                core.configure(cycle[next], new String[0]);
            }
        }
        stop = true;
        end.await(30, TimeUnit.SECONDS);
        long elapsed = System.nanoTime() - t0;
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
        closed = true;
        start.await(30, TimeUnit.SECONDS);
        for (Thread t : workers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
