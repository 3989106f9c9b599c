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
 * {@code timer-kernel-slack}: 10,000 periodic timers at 50 ms on Rouse with exact deadlines and each worker's Linux
 * timer slack ({@code kernel.slack.micros}) at the kernel's default (50 µs), 20, 10, 5 and 1 µs, beside
 * {@code ScheduledThreadPoolExecutor}: what waking closer to a deadline buys in lateness and costs in CPU.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-kernel-slack
 * }</pre>
 */
public final class TimerKernelSlack implements Scenario {

    static final String BASELINE = "ScheduledThreadPoolExecutor, 10000";
    private static final long[] KERNEL_SLACK_MICROS = {0, 20, 10, 5, 1};

    @Override
    public String name() {
        return "timer-kernel-slack";
    }

    @Override
    public String description() {
        return "10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event (handler"
                + " start minus due time), CPU and CPU per event, for Rouse with exact deadlines (4 workers) and each"
                + " worker's Linux timer slack (kernel.slack.micros, prctl PR_SET_TIMERSLACK) at the kernel's default"
                + " (50 µs), 20, 10, 5 and 1 µs, against ScheduledThreadPoolExecutor (4 threads, the kernel's"
                + " default slack). Where the native helper is unavailable every Rouse row runs with the default.";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (long micros : KERNEL_SLACK_MICROS) {
            variants.add(new TimerReentry.Periodic(
                    "Rouse, kernel slack " + (micros == 0 ? "default" : micros + " µs"),
                    10_000,
                    () -> TimerBackend.Rouse.withKernelSlack(4, micros)));
        }
        variants.add(new TimerReentry.Periodic("ScheduledThreadPoolExecutor", 10_000, () -> new TimerBackend.Stpe(4)));
        return variants;
    }

    @Override
    public ReportLayout layout() {
        return layoutAgainstStpe();
    }

    @Override
    public RoundPlan plan(Options options) {
        return sixSecondRounds(options);
    }

    /** Lateness and CPU columns, with p50, p99, p99.9 and CPU as ratios against {@link #BASELINE}. */
    static ReportLayout layoutAgainstStpe() {
        return new ReportLayout(
                PeriodicRound.latenessAndCpuColumns(PeriodicRound.EVENTS),
                BASELINE,
                List.of(Metrics.P50_US, Metrics.P99_US, Metrics.P999_US, PeriodicRound.CPU_PERCENT),
                true);
    }

    /** One warm-up and five measured rounds of 6 s (one of 500 ms with {@code --quick}). */
    static RoundPlan sixSecondRounds(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(500))
                : new RoundPlan(1, 5, Duration.ofSeconds(6));
    }
}
