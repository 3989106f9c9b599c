package org.rouse.benchmarks.timer;

import java.util.ArrayList;
import java.util.List;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code timer-help-after}: 10,000 periodic timers at 50 ms on Rouse with {@code help.after.micros} at its default
 * (1,000 µs), 200, 50 and 0 (hand every batch over at once), beside {@code ScheduledThreadPoolExecutor}: how soon a
 * worker that runs the batch it fired should wake another one, in lateness and in CPU.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-help-after
 * }</pre>
 */
public final class TimerHelpAfter implements Scenario {

    private static final long[] HELP_AFTER_MICROS = {1000, 200, 50, 0};

    @Override
    public String name() {
        return "timer-help-after";
    }

    @Override
    public String description() {
        return "10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event (handler"
                + " start minus due time), CPU and CPU per event, for Rouse with exact deadlines (4 workers, the"
                + " default kernel slack) and help.after.micros (how long queued handlers may wait behind the worker"
                + " that fired them before it wakes another) at 1000 (the default), 200, 50 and 0 (every batch handed"
                + " over at once), against ScheduledThreadPoolExecutor (4 threads).";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (long micros : HELP_AFTER_MICROS) {
            variants.add(new TimerReentry.Periodic(
                    "Rouse, help after " + micros + " µs", 10_000, () -> TimerBackend.Rouse.withHelpAfter(4, micros)));
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
