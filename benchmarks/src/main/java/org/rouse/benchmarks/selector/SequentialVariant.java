package org.rouse.benchmarks.selector;

import java.time.Duration;
import java.util.List;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Variant;

/**
 * One server under {@code connections} closed-loop clients making chains of {@value EchoLoad#CHAIN} calls, with an
 * optional think time after each chain (see {@link EchoLoad}). Per round: call latency, throughput, process CPU per
 * call, threads the JVM started, and for Rouse the wakeups written and the pool threads created and retired.
 */
final class SequentialVariant extends EchoLoadVariant {

    /** @param thinkNanos the pause after each chain; 0 = back to back */
    SequentialVariant(ServerSetup setup, int connections, long thinkNanos) {
        super(setup, connections, thinkNanos);
    }

    /** One variant per setup, in order. */
    static List<Variant> of(List<ServerSetup> setups, int connections, long thinkNanos) {
        return setups.stream()
                .<Variant>map(s -> new SequentialVariant(s, connections, thinkNanos))
                .toList();
    }

    @Override
    public Measurement runRound(Duration budget) throws Exception {
        LoadSnapshot before = LoadSnapshot.take(load().server());
        EchoLoad.Round round = load().round(budget.toNanos());
        LoadSnapshot after = LoadSnapshot.take(load().server());
        LatencyHistogram latency = round.calls();
        long total = latency.count();
        Measurement.Builder m = Measurement.builder()
                .put(Metrics.OPS, total)
                .put(SelectorMetrics.THREADS_STARTED, after.threadsStartedSince(before))
                .put(SelectorMetrics.POOL_THREADS_CREATED, after.increase(before, LoadSnapshot.POOL_THREADS_CREATED))
                .put(SelectorMetrics.POOL_THREADS_RETIRED, after.increase(before, LoadSnapshot.POOL_THREADS_RETIRED));
        if (total == 0) {
            return m.build();
        }
        double wakeups = after.increase(before, LoadSnapshot.WAKEUPS_WRITTEN);
        double selectCycles = after.increase(before, LoadSnapshot.SELECT_CYCLES);
        return m.put(Metrics.P50_US, latency.percentileMicros(50))
                .put(Metrics.P99_US, latency.percentileMicros(99))
                .put(Metrics.P999_US, latency.percentileMicros(99.9))
                .put(Metrics.MAX_US, latency.maxMicros())
                .put(SelectorMetrics.CALLS_PER_S, total * 1e9 / round.elapsedNanos())
                .put(SelectorMetrics.PROCESS_CPU_PER_CALL_US, after.cpuSince(before) / 1_000.0 / total)
                .put(SelectorMetrics.WAKEUPS_PER_CALL, wakeups / total)
                .put(SelectorMetrics.WAKEUPS_PER_SELECT, selectCycles > 0 ? wakeups / selectCycles : Double.NaN)
                .latency(latency)
                .build();
    }
}
