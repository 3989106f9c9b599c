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
 * {@code timer-slack}: 711 and 10,000 fixed-rate timers every 50 ms with a timer slack of 1 ms (Rouse's
 * {@code slack.micros = 1000}) against Netty's {@code HashedWheelTimer} at a 1 ms tick, which also accepts up to a
 * tick of lateness; Rouse with exact deadlines and {@code ScheduledThreadPoolExecutor} for reference.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-slack
 * }</pre>
 */
public final class TimerSlack implements Scenario {

    static final String BASELINE = "HashedWheelTimer 1 ms, 711";

    @Override
    public String name() {
        return "timer-slack";
    }

    @Override
    public String description() {
        return "711 and 10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event"
                + " and process CPU for Rouse with 1 ms of timer slack (wheel engine, 4 workers), HashedWheelTimer"
                + " (1 ms tick), Rouse with exact deadlines and ScheduledThreadPoolExecutor (4 threads); for Rouse also"
                + " the engine's wake-ups per second and its watchdog's among them. Full mode runs 3 measured rounds"
                + " of 5 s per variant.";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (int timers : new int[] {711, 10_000}) {
            variants.add(new TimerReentry.Periodic("Rouse slack 1 ms", timers, () -> new TimerBackend.Rouse(4, 1000)));
            variants.add(new TimerReentry.Periodic(
                    "HashedWheelTimer 1 ms", timers, () -> new TimerBackend.Netty(Duration.ofMillis(1))));
            variants.add(new TimerReentry.Periodic("Rouse", timers, () -> new TimerBackend.Rouse(4)));
            variants.add(
                    new TimerReentry.Periodic("ScheduledThreadPoolExecutor", timers, () -> new TimerBackend.Stpe(4)));
        }
        return variants;
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                PeriodicRound.latenessAndCpuColumns(
                        PeriodicRound.MEAN_REENTRY_S,
                        PeriodicRound.EVENTS,
                        PeriodicRound.ENGINE_WAKEUPS_PER_S,
                        PeriodicRound.WATCHDOG_WAKEUPS_PER_S),
                BASELINE,
                List.of(PeriodicRound.CPU_PERCENT, Metrics.P99_US),
                true);
    }

    @Override
    public RoundPlan plan(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(400))
                : new RoundPlan(1, 3, Duration.ofSeconds(5));
    }
}
