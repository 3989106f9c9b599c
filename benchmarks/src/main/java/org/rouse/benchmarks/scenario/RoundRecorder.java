package org.rouse.benchmarks.scenario;

import org.rouse.benchmarks.measure.ContextSwitches;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.measure.ProcessCpu;
import org.rouse.benchmarks.measure.ThreadUsage;

/**
 * Collects one round of a latency-style variant and turns it into a {@link Measurement} with the standard
 * {@link Metrics}: latency percentiles (µs), operations, CPU and context switches of the benchmark's threads per
 * operation, and process CPU per operation.
 *
 * <p>Latency is recorded by one thread only (the one that calls {@link #recordLatencyNanos}); thread usage may be
 * added from any thread. Call {@link #finish()} on the recording thread after every worker's usage has been added.
 *
 * <pre>{@code
 * RoundRecorder round = RoundRecorder.start();
 * ThreadUsage begin = ThreadUsage.begin();
 * while (...) { long t0 = System.nanoTime(); work(); round.recordLatencyNanos(System.nanoTime() - t0); }
 * round.addThreadUsage(ThreadUsage.end().minus(begin));
 * return round.finish();
 * }</pre>
 */
public final class RoundRecorder {

    private final long processCpuAtStart = ProcessCpu.nanos();
    /** Written only by the recording thread. */
    private final LatencyHistogram latency = new LatencyHistogram();
    /** Sum of the usage of every thread of the round; guarded by {@code this}. */
    private ThreadUsage usage = ThreadUsage.ZERO;

    private RoundRecorder() {}

    /** Starts a round now (process CPU is counted from here). */
    public static RoundRecorder start() {
        return new RoundRecorder();
    }

    /** Records the latency of one operation; each call counts as one operation. */
    public void recordLatencyNanos(long nanos) {
        latency.recordNanos(nanos);
    }

    /** Adds what one of the round's threads consumed. */
    public synchronized void addThreadUsage(ThreadUsage delta) {
        usage = usage.plus(delta);
    }

    /** Operations recorded so far. */
    public long operations() {
        return latency.count();
    }

    /** Ends the round and returns its measurement. */
    public Measurement finish() {
        long processCpu = ProcessCpu.nanos() - processCpuAtStart;
        long ops = latency.count();
        ThreadUsage total;
        synchronized (this) {
            total = usage;
        }
        Measurement.Builder m = Measurement.builder().put(Metrics.OPS, ops);
        if (ops == 0) {
            return m.build();
        }
        boolean switchesKnown = ContextSwitches.supported();
        return m.put(Metrics.P50_US, latency.percentileMicros(50))
                .put(Metrics.P99_US, latency.percentileMicros(99))
                .put(Metrics.P999_US, latency.percentileMicros(99.9))
                .put(Metrics.MAX_US, latency.maxMicros())
                .put(Metrics.CPU_PER_OP_US, total.cpuNanos() / 1_000.0 / ops)
                .put(Metrics.PROCESS_CPU_PER_OP_US, processCpu / 1_000.0 / ops)
                .put(
                        Metrics.SWITCHES_PER_OP,
                        switchesKnown ? (double) total.switches().total() / ops : Double.NaN)
                .put(
                        Metrics.VOLUNTARY_PER_OP,
                        switchesKnown ? (double) total.switches().voluntary() / ops : Double.NaN)
                .put(
                        Metrics.INVOLUNTARY_PER_OP,
                        switchesKnown ? (double) total.switches().involuntary() / ops : Double.NaN)
                .latency(latency)
                .build();
    }
}
