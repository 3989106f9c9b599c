package org.rouse.benchmarks.timer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.measure.ProcessCpu;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code timer-lateness}: 10,000 periodic timers at 50 ms; how late each event starts after its due time, against the
 * floor of a bare {@code LockSupport.parkNanos} overshoot measured in the same run.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-lateness
 * }</pre>
 */
public final class TimerLateness implements Scenario {

    static final String FLOOR = "parkNanos(1 ms) overshoot";

    @Override
    public String name() {
        return "timer-lateness";
    }

    @Override
    public String description() {
        return "10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event (handler"
                + " start minus due time) for Rouse (wheel engine, 4 workers), ScheduledThreadPoolExecutor (4 threads)"
                + " and HashedWheelTimer (1 ms tick); the floor is one thread's LockSupport.parkNanos(1 ms) overshoot"
                + " in the same run. Full mode runs 30 s per variant.";
    }

    @Override
    public List<Variant> variants(Options options) {
        return List.of(
                new Floor(),
                new TimerReentry.Periodic("Rouse", 10_000, () -> new TimerBackend.Rouse(4)),
                new TimerReentry.Periodic("ScheduledThreadPoolExecutor", 10_000, () -> new TimerBackend.Stpe(4)),
                new TimerReentry.Periodic(
                        "HashedWheelTimer 1 ms", 10_000, () -> new TimerBackend.Netty(Duration.ofMillis(1))));
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                PeriodicRound.latenessAndCpuColumns(PeriodicRound.EVENTS),
                FLOOR,
                List.of(Metrics.P50_US, Metrics.P99_US),
                true);
    }

    @Override
    public RoundPlan plan(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(500))
                : new RoundPlan(1, 5, Duration.ofSeconds(6));
    }

    /** The floor: how late one thread wakes from {@code parkNanos(1 ms)}. */
    static final class Floor implements Variant {
        @Override
        public String name() {
            return FLOOR;
        }

        @Override
        public String description() {
            return "one thread parking 1 ms at a time; lateness = time beyond the 1 ms asked for";
        }

        @Override
        public Measurement runRound(Duration budget) {
            Histogram late = new Histogram(3);
            long cpuBefore = ProcessCpu.nanos();
            long start = System.nanoTime();
            long end = start + budget.toNanos();
            long wait = 1_000_000;
            for (long now = start; now - end < 0; ) {
                LockSupport.parkNanos(wait);
                long after = System.nanoTime();
                late.recordValue(Math.max(0, after - now - wait));
                now = after;
            }
            long wall = System.nanoTime() - start;
            LatencyHistogram chart = new LatencyHistogram();
            chart.addAll(late);
            return Measurement.builder()
                    .latency(chart)
                    .put(Metrics.P50_US, late.getValueAtPercentile(50) / 1e3)
                    .put(Metrics.P99_US, late.getValueAtPercentile(99) / 1e3)
                    .put(Metrics.P999_US, late.getValueAtPercentile(99.9) / 1e3)
                    .put(Metrics.MAX_US, late.getMaxValue() / 1e3)
                    .put(PeriodicRound.CPU_PERCENT, (ProcessCpu.nanos() - cpuBefore) * 100.0 / wall)
                    .put(PeriodicRound.EVENTS, late.getTotalCount())
                    .build();
        }
    }
}
