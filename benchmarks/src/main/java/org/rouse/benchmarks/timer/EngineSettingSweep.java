package org.rouse.benchmarks.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * A scenario that sweeps one setting of the wheel engine: 10,000 periodic timers at 50 ms on Rouse (4 workers, exact
 * deadlines) once per value of the setting, and on {@code ScheduledThreadPoolExecutor} (4 threads), the baseline of
 * every ratio. One warm-up and five measured rounds of 6 s (one of 500 ms with {@code --quick}).
 */
abstract class EngineSettingSweep implements Scenario {

    static final String BASELINE = "ScheduledThreadPoolExecutor, 10000";
    private static final int TIMERS = 10_000;

    private final long[] values;
    private final LongFunction<TimerBackend.Rouse> backend;

    /** @param backend makes the Rouse backend with the setting at one of {@code values} */
    EngineSettingSweep(LongFunction<TimerBackend.Rouse> backend, long... values) {
        this.backend = backend;
        this.values = values.clone();
    }

    @Override
    public final List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (long value : values) {
            variants.add(new TimerReentry.Periodic(rowName(value), TIMERS, () -> backend.apply(value)));
        }
        variants.add(new TimerReentry.Periodic("ScheduledThreadPoolExecutor", TIMERS, () -> new TimerBackend.Stpe(4)));
        return variants;
    }

    /** The name of the Rouse row for {@code value}. */
    abstract String rowName(long value);

    @Override
    public final ReportLayout layout() {
        return new ReportLayout(
                PeriodicRound.latenessAndCpuColumns(PeriodicRound.EVENTS),
                BASELINE,
                List.of(Metrics.P50_US, Metrics.P99_US, Metrics.P999_US, PeriodicRound.CPU_PERCENT),
                true);
    }

    @Override
    public final RoundPlan plan(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(500))
                : new RoundPlan(1, 5, Duration.ofSeconds(6));
    }
}
