package org.rouse.benchmarks.lock;

import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.locks.LockSupport;
import org.rouse.benchmarks.measure.ContextSwitches;
import org.rouse.benchmarks.measure.JainFairness;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.measure.ThreadUsage;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.RoundWorkers;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code threads} threads taking one guard in a loop for a round: the critical section increments a counter and
 * updates a small hash map; between acquisitions a thread either does a little private work or nothing.
 *
 * <p>Workers wait at a barrier between rounds (blocked, not spinning). Acquire-wait is timed on one acquisition in
 * {@value #SAMPLE_EVERY} per thread, so the clock reads barely disturb the throughput; a violation counter checks
 * mutual exclusion on every acquisition.
 */
final class ContentionVariant implements Variant {

    static final int SAMPLE_EVERY = 32;
    private static final int MAP_KEYS = 64;

    private final String name;
    private final Guard guard;
    private final int threads;
    private final boolean workBetween;

    private final HashMap<Integer, Long> map = new HashMap<>();
    private final Round[] rounds;
    private final RoundWorkers workers;

    /** Guarded by the guard: counter and the "inside" check of mutual exclusion. */
    private long counter;

    private int inside;
    private long violations;

    ContentionVariant(Guard guard, int threads, boolean workBetween) {
        this.name = guard.name() + (workBetween ? ", work" : ", no work");
        this.guard = guard;
        this.threads = threads;
        this.workBetween = workBetween;
        this.rounds = new Round[threads];
        this.workers = new RoundWorkers("rouse-bench-lock", threads, this::work);
    }

    /** What one worker measured in one round. */
    private static final class Round {
        long ops;
        ThreadUsage usage = ThreadUsage.ZERO;
        final LatencyHistogram waits = new LatencyHistogram();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return threads + " threads; " + guard.name() + "; critical section: counter + small HashMap update; "
                + (workBetween
                        ? PrivateWork.CONTENTION_STEPS + " steps of private work between acquisitions"
                        : "no work " + "between acquisitions");
    }

    @Override
    public void open() {
        workers.start();
    }

    private void work(int index) {
        Runnable section = () -> {
            if (++inside != 1) {
                violations++;
            }
            long c = ++counter;
            map.merge((int) (c % MAP_KEYS), c, Long::sum);
            inside--;
        };
        long seed = index + 1;
        Round round = new Round();
        ThreadUsage begin = ThreadUsage.begin();
        long ops = 0;
        while (!workers.stopped()) {
            if (workBetween) {
                seed = PrivateWork.steps(seed, PrivateWork.CONTENTION_STEPS);
            }
            if ((ops & (SAMPLE_EVERY - 1)) == 0) {
                long t0 = System.nanoTime();
                guard.run(() -> {
                    round.waits.recordNanos(System.nanoTime() - t0);
                    section.run();
                });
            } else {
                guard.run(section);
            }
            ops++;
        }
        round.usage = ThreadUsage.end().minus(begin);
        round.ops = ops + (seed == 42 ? 1 : 0); // keep the work alive
        rounds[index] = round;
    }

    @Override
    public Measurement runRound(Duration budget) throws Exception {
        long violationsBefore = violations;
        long elapsed = workers.round(deadline -> LockSupport.parkNanos(deadline - System.nanoTime()), budget.toNanos());
        long total = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        long[] shares = new long[threads];
        ThreadUsage usage = ThreadUsage.ZERO;
        LatencyHistogram waits = new LatencyHistogram();
        for (int i = 0; i < threads; i++) {
            Round r = rounds[i];
            shares[i] = r.ops;
            total += r.ops;
            min = Math.min(min, r.ops);
            max = Math.max(max, r.ops);
            usage = usage.plus(r.usage);
            waits.add(r.waits);
        }
        double ops = Math.max(1, total);
        ContextSwitches switches = usage.switches();
        return Measurement.builder()
                .put(LockMetrics.THROUGHPUT, total * 1e9 / elapsed)
                .put(Metrics.CPU_PER_OP_US, usage.cpuNanos() / 1_000.0 / ops)
                .put(LockMetrics.VOLUNTARY_PER_OP, switches.voluntary() / ops)
                .put(LockMetrics.INVOLUNTARY_PER_OP, switches.involuntary() / ops)
                .put(LockMetrics.MIN_MAX, max == 0 ? Double.NaN : (double) min / max)
                .put(LockMetrics.JAIN, JainFairness.index(shares))
                .put(Metrics.P50_US, waits.percentileMicros(50))
                .put(Metrics.P99_US, waits.percentileMicros(99))
                .put(Metrics.MAX_US, waits.maxMicros())
                .put(LockMetrics.VIOLATIONS, violations - violationsBefore)
                .latency(waits)
                .build();
    }

    @Override
    public void close() throws Exception {
        workers.close();
    }
}
