package org.rouse.api.internal.selector;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.rouse.selector.SelectorStatistics;
import org.rouse.selector.spi.SelectorEngine;
import org.rouse.stats.Percentiles;

/**
 * The Gogo command {@code rouse:selector}: prints the active engine, its counters and every consuming bundle's view.
 * Registered by {@link SelectorFront} as a plain service object with {@code osgi.command.scope=rouse} and {@code
 * osgi.command.function=selector} (Gogo calls public methods by name; no Gogo import needed).
 *
 * <pre>
 * g! rouse:selector
 * engine nio-1
 *   channels 3, select.cycles 1204, wakeups.requested 812, wakeups.written 640, rebuilds 0, pool.threads 2, ...
 * view org.rouse.examples.resp[12]: 3 registrations, 1201 upcalls (0 failed), upcall p50 41 us p99 310 us
 * </pre>
 */
public final class SelectorCommands {

    private final SelectorFrontCore core;
    private final Supplier<Collection<BundleSelectorView>> views;

    /** A command over {@code core} listing the views {@code views} supplies. */
    public SelectorCommands(SelectorFrontCore core, Supplier<Collection<BundleSelectorView>> views) {
        this.core = core;
        this.views = views;
    }

    /** The report, one line per engine and per view. */
    public String selector() {
        StringBuilder out = new StringBuilder();
        SelectorEngine engine = core.active();
        if (engine == null) {
            out.append("engine none (registrations are parked until an engine appears)\n");
        } else {
            out.append("engine ").append(engine.name()).append('\n');
            StringBuilder counters = new StringBuilder();
            for (Map.Entry<String, Long> counter : engine.counters().entrySet()) {
                counters.append(counters.length() == 0 ? "  " : ", ")
                        .append(counter.getKey())
                        .append(' ')
                        .append(counter.getValue());
            }
            if (counters.length() == 0) {
                counters.append("  wakeups.requested ")
                        .append(engine.wakeupsRequested())
                        .append(", wakeups.written ")
                        .append(engine.wakeupsWritten());
            }
            out.append(counters).append('\n');
        }
        List<BundleSelectorView> sorted = views.get().stream()
                .sorted(Comparator.comparing(BundleSelectorView::owner))
                .toList();
        for (BundleSelectorView view : sorted) {
            SelectorStatistics stats = view.statistics();
            Percentiles upcall = stats.upcallDuration();
            out.append(String.format(
                    "view %s: %d registrations, %d upcalls (%d failed), upcall p50 %d us p99 %d us%n",
                    view.owner(),
                    stats.registrations(),
                    stats.upcalls(),
                    stats.failedUpcalls(),
                    upcall.p50Nanos() / 1_000,
                    upcall.p99Nanos() / 1_000));
        }
        return out.toString();
    }
}
