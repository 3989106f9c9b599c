package org.rouse.benchmarks.scenario;

import java.util.List;

/**
 * A question answered by measuring several variants side by side in one process, e.g. "how late does a 1 ms timer
 * fire with Rouse, with a {@code ScheduledThreadPoolExecutor}, with Netty's wheel?".
 *
 * <p>The runner opens every variant, runs their rounds interleaved (A B C A B C ...) so that machine noise hits all of
 * them alike, reports the median of each metric over the rounds and compares each variant with the baseline named
 * by {@link #layout()}. Register a new scenario in {@code org.rouse.benchmarks.Scenarios}.
 *
 * <pre>{@code
 * public final class TimerLateness implements Scenario {
 *     public String name() { return "timer-lateness"; }
 *     public String description() { return "Lateness of 10k periodic 50 ms timers"; }
 *     public List<Variant> variants(Options options) { return List.of(new RouseTimers(), new JdkScheduled()); }
 *     public ReportLayout layout() { return new ReportLayout(columns, "ScheduledThreadPoolExecutor", ratios, true); }
 * }
 * }</pre>
 */
public interface Scenario {

    /** The command-line name and file name stem, lower-case with dashes, e.g. {@code wakeup-floor}. */
    String name();

    /** A paragraph for the report: what is measured and why it matters. */
    String description();

    /** Fresh, unopened variants (the runner opens and closes them); names must be unique. */
    List<Variant> variants(Options options);

    /** Columns, baseline and chart of the report. */
    ReportLayout layout();

    /** Rounds to run; by default {@link RoundPlan#QUICK} with {@code --quick}, else {@link RoundPlan#FULL}. */
    default RoundPlan plan(Options options) {
        return options.quick() ? RoundPlan.QUICK : RoundPlan.FULL;
    }
}
