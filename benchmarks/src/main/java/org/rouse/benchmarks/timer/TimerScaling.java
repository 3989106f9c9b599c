package org.rouse.benchmarks.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code timer-scaling}: how lateness and CPU per event grow with the number of timers: 1,000 and 10,000 fixed-rate
 * timers every 50 ms, and 100,000 every 500 ms (2,000,000 events/s at 50 ms is beyond what any contender sustains on
 * 2 cores; at 500 ms the event rate equals that of 10,000 at 50 ms, so the curve shows the cost of the number of
 * pending timers at a constant rate).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-scaling
 * }</pre>
 */
public final class TimerScaling implements Scenario {

    static final String BASELINE = "ScheduledThreadPoolExecutor, 10000";

    @Override
    public String name() {
        return "timer-scaling";
    }

    @Override
    public String description() {
        return "1,000 and 10,000 fixed-rate timers every 50 ms and 100,000 every 500 ms, phases spread over the period:"
                + " lateness, process CPU and CPU per event for Rouse (wheel engine, 4 workers, exact deadlines),"
                + " ScheduledThreadPoolExecutor (4 threads) and HashedWheelTimer (1 ms tick). Full mode runs 3"
                + " measured rounds of 5 s per variant.";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        int[] counts = {1_000, 10_000, 100_000};
        Duration[] periods = {Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(500)};
        for (int i = 0; i < counts.length; i++) {
            int timers = counts[i];
            Duration period = periods[i];
            variants.add(new TimerReentry.Periodic("Rouse", timers, period, () -> new TimerBackend.Rouse(4)));
            variants.add(new TimerReentry.Periodic(
                    "ScheduledThreadPoolExecutor", timers, period, () -> new TimerBackend.Stpe(4)));
            variants.add(new TimerReentry.Periodic(
                    "HashedWheelTimer 1 ms", timers, period, () -> new TimerBackend.Netty(Duration.ofMillis(1))));
        }
        return variants;
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                PeriodicRound.latenessAndCpuColumns(PeriodicRound.EVENTS),
                BASELINE,
                List.of(PeriodicRound.CPU_US_PER_EVENT, Metrics.P99_US),
                true);
    }

    @Override
    public RoundPlan plan(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(600))
                : new RoundPlan(1, 3, Duration.ofSeconds(5));
    }
}
