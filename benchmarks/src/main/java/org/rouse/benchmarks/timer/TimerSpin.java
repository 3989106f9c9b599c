package org.rouse.benchmarks.timer;

import java.util.ArrayList;
import java.util.List;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code timer-spin}: 10,000 periodic timers at 50 ms on Rouse with {@code spin.micros} at its default (0, never spin)
 * and at 5, 10 and 20 µs, beside {@code ScheduledThreadPoolExecutor}: whether a worker that waits only a few
 * microseconds for the next deadline should spin through the wait instead of parking, in lateness and in CPU.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-spin
 * }</pre>
 */
public final class TimerSpin implements Scenario {

    private static final long[] SPIN_MICROS = {0, 5, 10, 20};

    @Override
    public String name() {
        return "timer-spin";
    }

    @Override
    public String description() {
        return "10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event (handler"
                + " start minus due time), CPU and CPU per event, for Rouse with exact deadlines (4 workers, the"
                + " default kernel slack) and spin.micros (a wait for the next deadline up to this long is spun"
                + " through instead of parked) at 0 (the default), 5, 10 and 20, against ScheduledThreadPoolExecutor"
                + " (4 threads).";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (long micros : SPIN_MICROS) {
            variants.add(new TimerReentry.Periodic(
                    "Rouse, spin " + micros + " µs", 10_000, () -> TimerBackend.Rouse.withSpin(4, micros)));
        }
        variants.add(new TimerReentry.Periodic("ScheduledThreadPoolExecutor", 10_000, () -> new TimerBackend.Stpe(4)));
        return variants;
    }

    @Override
    public ReportLayout layout() {
        return TimerKernelSlack.layoutAgainstStpe();
    }

    @Override
    public RoundPlan plan(Options options) {
        return TimerKernelSlack.sixSecondRounds(options);
    }
}
