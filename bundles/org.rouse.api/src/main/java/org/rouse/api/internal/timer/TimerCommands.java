package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.rouse.stats.Percentiles;
import org.rouse.timer.TimerStatistics;

/**
 * The Gogo command {@code rouse:timers}: the engine, its dispatcher wake-ups, the last swap and, per consuming bundle,
 * pending/fired/failed/cancelled/clamped/slow counts and lateness percentiles. Registered by {@link TimerFront} as a
 * plain service with {@code osgi.command.scope=rouse} and {@code osgi.command.function=timers}, so the API bundle
 * needs no Gogo import.
 *
 * <pre>
 * g! rouse:timers
 * engine wheel, dispatcher wakeups 1234, swaps 1 (last pause 0.412 ms)
 * bundle                      pending    fired failed cancelled clamped slow  lateness p50/p99/p99.9/max (ms)
 * org.rouse.examples.scripts      711  1420000      0         0       0    0  0.071/0.210/0.530/2.100
 * </pre>
 */
public final class TimerCommands {

    private final TimerFrontCore core;

    public TimerCommands(TimerFrontCore core) {
        this.core = core;
    }

    /** Prints the timer statistics (Gogo calls this for {@code rouse:timers}). */
    public String timers() {
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
}
