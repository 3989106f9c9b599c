package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.felix.service.command.Descriptor;
import org.rouse.api.internal.ShellSupport;
import org.rouse.stats.Percentiles;
import org.rouse.timer.TimerStatistics;

/**
 * The timer service's shell commands in the {@code rouse} scope: {@code rouse:timers} (the engine, its dispatcher
 * wake-ups, the last swap and, per consuming bundle, pending/fired/failed/cancelled/clamped/slow counts and lateness
 * percentiles), {@code rouse:late} (the owners whose handlers started latest) and {@code rouse:running} (the handlers
 * running longest now). Registered by {@link TimerFront} as a plain service with {@code osgi.command.scope=rouse},
 * so the API bundle needs Gogo only for the optional {@link Descriptor} help; under Karaf's shell it is registered
 * without those properties and the Action commands of {@code org.rouse.api.internal.karaf} call it (see
 * {@link org.rouse.api.internal.GogoCommands}).
 *
 * <p>Each command writes its report to the calling session (see {@link ShellSupport}); a bad argument fails with a
 * usage message.
 *
 * <pre>
 * g! rouse:timers
 * engine wheel, dispatcher wakeups 1234, swaps 1 (last pause 0.412 ms)
 * bundle                      pending    fired failed cancelled clamped slow  lateness p50/p99/p99.9/max (ms)
 * org.rouse.examples.scripts      711  1420000      0         0       0    0  0.071/0.210/0.530/2.100
 * g! rouse:late 5
 * g! rouse:running
 * g! rouse:timers reset
 * </pre>
 */
public final class TimerCommands {

    /** The functions this object offers, for its registration. */
    static final String[] FUNCTIONS = {"timers", "late", "running"};

    /*
     * Help texts, shared by the Gogo functions' @Descriptor and the Karaf Action commands
     * (org.rouse.api.internal.karaf), so both shells describe a command alike.
     */

    /** Help of {@code rouse:timers}. */
    public static final String TIMERS_HELP =
            "Timer statistics: engine, dispatcher wake-ups, swaps; per consuming bundle"
                    + " pending, fired, failed, cancelled, clamped and slow counts and lateness percentiles";

    /** Help of {@code rouse:timers [reset]}. */
    public static final String TIMERS_RESET_HELP = "Timer statistics, or with 'reset' zero them (counts and lateness"
            + " of every bundle and owner; pending timers, engine wake-ups and swaps are not reset)";

    /** Help of a {@code reset} argument. */
    public static final String RESET_ARGUMENT_HELP = "'reset' to zero the statistics";

    /** Help of {@code rouse:late}. */
    public static final String LATE_DEFAULT_HELP =
            "The 10 timer owners whose handlers started latest after their deadline (by the largest lateness)";

    /** Help of {@code rouse:late [n]}. */
    public static final String LATE_HELP =
            "The n timer owners whose handlers started latest after their deadline (by the largest lateness)";

    /** Help of the argument of {@code rouse:late [n]}. */
    public static final String LATE_N_HELP = "how many owners to show (0 to 100000; default 10)";

    /** Help of {@code rouse:running}. */
    public static final String RUNNING_DEFAULT_HELP =
            "The 10 timer handlers that have been running longest right now (stuck or slow handlers)";

    /** Help of {@code rouse:running [n]}. */
    public static final String RUNNING_HELP =
            "The n timer handlers that have been running longest right now (stuck or slow handlers)";

    /** Help of the argument of {@code rouse:running [n]}. */
    public static final String RUNNING_N_HELP = "how many handlers to show (0 to 100000; default 10)";

    private static final int DEFAULT_TOP = 10;

    private final TimerFrontCore core;

    public TimerCommands(TimerFrontCore core) {
        this.core = core;
    }

    /** Prints the timer statistics ({@code rouse:timers}). */
    @Descriptor(TIMERS_HELP)
    public void timers() {
        ShellSupport.print(report());
    }

    /** {@code rouse:timers reset}: zeroes the statistics the front keeps. */
    @Descriptor(TIMERS_RESET_HELP)
    public void timers(@Descriptor(RESET_ARGUMENT_HELP) String action) {
        if (!"reset".equals(action == null ? null : action.trim())) {
            throw new IllegalArgumentException("unknown argument '" + action + "'; usage: rouse:timers [reset]");
        }
        core.resetStatistics();
        ShellSupport.print("timer statistics reset\n");
    }

    /** {@code rouse:late}: the 10 owners whose handlers started latest. */
    @Descriptor(LATE_DEFAULT_HELP)
    public void late() {
        ShellSupport.print(lateReport(DEFAULT_TOP));
    }

    /** {@code rouse:late n}: the {@code n} owners whose handlers started latest. */
    @Descriptor(LATE_HELP)
    public void late(@Descriptor(LATE_N_HELP) String n) {
        ShellSupport.print(lateReport(ShellSupport.count(n, "n", "rouse:late [n]")));
    }

    /** {@code rouse:running}: the 10 handlers running longest now. */
    @Descriptor(RUNNING_DEFAULT_HELP)
    public void running() {
        ShellSupport.print(runningReport(DEFAULT_TOP));
    }

    /** {@code rouse:running n}: the {@code n} handlers running longest now. */
    @Descriptor(RUNNING_HELP)
    public void running(@Descriptor(RUNNING_N_HELP) String n) {
        ShellSupport.print(runningReport(ShellSupport.count(n, "n", "rouse:running [n]")));
    }

    /** The text of {@code rouse:timers}. */
    public String report() {
        TimerDispatch dispatch = core.dispatch();
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "engine %s, dispatcher wakeups %d, swaps %d (last pause %.3f ms)%n",
                dispatch.engineName(),
                dispatch.dispatcherWakeups(),
                core.swaps(),
                core.lastSwapPauseNanos() / 1e6));
        out.append(String.format(
                Locale.ROOT,
                "%-32s %9s %10s %7s %9s %7s %5s  %s%n",
                "bundle",
                "pending",
                "fired",
                "failed",
                "cancelled",
                "clamped",
                "slow",
                "lateness p50/p99/p99.9/max (ms)"));
        List<BundleTimerView> views = new ArrayList<>(core.views());
        views.sort(Comparator.comparing(BundleTimerView::consumer));
        for (BundleTimerView view : views) {
            TimerStatistics stats = view.statistics();
            Percentiles late = stats.lateness();
            out.append(String.format(
                    Locale.ROOT,
                    "%-32s %9d %10d %7d %9d %7d %5d  %.3f/%.3f/%.3f/%.3f%n",
                    view.consumer(),
                    stats.pending(),
                    stats.fired(),
                    stats.failed(),
                    stats.cancelled(),
                    stats.clamped(),
                    stats.slowHandlers(),
                    late.p50Nanos() / 1e6,
                    late.p99Nanos() / 1e6,
                    late.p999Nanos() / 1e6,
                    late.maxNanos() / 1e6));
        }
        return out.toString();
    }

    /** The text of {@code rouse:late n}. */
    public String lateReport(int top) {
        List<Owner.OwnerSnapshot> owners = new ArrayList<>(core.owners());
        owners.removeIf(o -> o.runs() == 0);
        owners.sort(Comparator.comparingLong(Owner.OwnerSnapshot::latenessMaxNanos)
                .thenComparingLong(Owner.OwnerSnapshot::latenessMeanNanos)
                .reversed());
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT, "%-32s %-32s %10s %12s %12s%n", "bundle", "owner", "runs", "mean (ms)", "max (ms)"));
        for (Owner.OwnerSnapshot o : owners.subList(0, Math.min(top, owners.size()))) {
            out.append(String.format(
                    Locale.ROOT,
                    "%-32s %-32s %10d %12.3f %12.3f%n",
                    o.consumer(),
                    o.owner(),
                    o.runs(),
                    o.latenessMeanNanos() / 1e6,
                    o.latenessMaxNanos() / 1e6));
        }
        return out.toString();
    }

    /** The text of {@code rouse:running n}. */
    public String runningReport(int top) {
        List<Owner.OwnerSnapshot> owners = new ArrayList<>(core.owners());
        owners.removeIf(o -> o.runningTimer() == null);
        owners.sort(Comparator.comparingLong(Owner.OwnerSnapshot::runningNanos).reversed());
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-32s %-32s %-20s %14s%n", "bundle", "owner", "timer", "running (ms)"));
        for (Owner.OwnerSnapshot o : owners.subList(0, Math.min(top, owners.size()))) {
            out.append(String.format(
                    Locale.ROOT,
                    "%-32s %-32s %-20s %14.3f%n",
                    o.consumer(),
                    o.owner(),
                    o.runningTimer(),
                    o.runningNanos() / 1e6));
        }
        return out.toString();
    }
}
