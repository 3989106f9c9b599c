package org.rouse.api.internal.selector;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.felix.service.command.Descriptor;
import org.rouse.api.internal.ShellSupport;
import org.rouse.selector.SelectorStatistics;
import org.rouse.selector.spi.SelectorEngine;
import org.rouse.stats.Percentiles;

/**
 * The selector service's shell commands in the {@code rouse} scope: {@code rouse:selector} (the active engine, its
 * counters and every consuming bundle's view) and {@code rouse:connections} (live connections per consuming bundle).
 * Registered by {@link SelectorFront} as a plain service object with {@code osgi.command.scope=rouse} (under Karaf's
 * shell without it, for the Action commands of {@code org.rouse.api.internal.karaf}; see
 * {@link org.rouse.api.internal.GogoCommands}); each command writes its report to the calling session (see
 * {@link ShellSupport}).
 *
 * <pre>
 * g! rouse:selector
 * engine nio-1
 *   channels 3, select.cycles 1204, wakeups.requested 812, wakeups.written 640, rebuilds 0, pool.threads 2, ...
 * view org.rouse.examples.resp[12]: 3 registrations, 1201 upcalls (0 failed), upcall p50 41 us p99 310 us
 * g! rouse:connections
 * g! rouse:connections org.rouse.examples.resp
 * g! rouse:selector reset
 * </pre>
 */
public final class SelectorCommands {

    /** The functions this object offers, for its registration. */
    static final String[] FUNCTIONS = {"selector", "connections"};

    /*
     * Help texts, shared by the Gogo functions' @Descriptor and the Karaf Action commands
     * (org.rouse.api.internal.karaf), so both shells describe a command alike.
     */

    /** Help of {@code rouse:selector}. */
    public static final String SELECTOR_HELP = "Selector statistics: the active engine and its counters (select cycles,"
            + " wake-ups, pool threads and queue, watch hits, re-arm latency), then per consuming bundle registrations"
            + " and upcalls";

    /** Help of {@code rouse:selector [reset]}. */
    public static final String SELECTOR_RESET_HELP = "Selector statistics, or with 'reset' zero every bundle's upcall"
            + " counts and durations (engine counters count from the engine's start and are not reset)";

    /** Help of a {@code reset} argument. */
    public static final String RESET_ARGUMENT_HELP = "'reset' to zero the statistics";

    /** Help of {@code rouse:connections}. */
    public static final String CONNECTIONS_HELP =
            "Live connections per consuming bundle: connected sockets, listening sockets, other channels";

    /** Help of {@code rouse:connections [bundle]}. */
    public static final String CONNECTIONS_BUNDLE_HELP =
            "Every live registration of one consuming bundle: kind, local and remote address, interest ops";

    /** Help of the argument of {@code rouse:connections [bundle]}. */
    public static final String BUNDLE_ARGUMENT_HELP =
            "the consuming bundle as rouse:connections lists it (name[id]), or its symbolic name";

    private final SelectorFrontCore core;
    private final Supplier<Collection<BundleSelectorView>> views;

    /** A command over {@code core} listing the views {@code views} supplies. */
    public SelectorCommands(SelectorFrontCore core, Supplier<Collection<BundleSelectorView>> views) {
        this.core = core;
        this.views = views;
    }

    /** {@code rouse:selector}: the report, one line per engine and per view. */
    @Descriptor(SELECTOR_HELP)
    public void selector() {
        ShellSupport.print(report());
    }

    /** {@code rouse:selector reset}: zeroes every view's upcall counts and durations. */
    @Descriptor(SELECTOR_RESET_HELP)
    public void selector(@Descriptor(RESET_ARGUMENT_HELP) String action) {
        if (!"reset".equals(action == null ? null : action.trim())) {
            throw new IllegalArgumentException("unknown argument '" + action + "'; usage: rouse:selector [reset]");
        }
        for (BundleSelectorView view : views.get()) {
            view.resetStatistics();
        }
        ShellSupport.print("selector statistics reset\n");
    }

    /** {@code rouse:connections}: per consuming bundle, its live connections, listeners and other channels. */
    @Descriptor(CONNECTIONS_HELP)
    public void connections() {
        ShellSupport.print(connectionsReport());
    }

    /**
     * {@code rouse:connections bundle}: every live registration of one consuming bundle, named as listed
     * ({@code symbolic.name[id]}) or by its symbolic name alone (every bundle of that name).
     */
    @Descriptor(CONNECTIONS_BUNDLE_HELP)
    public void connections(@Descriptor(BUNDLE_ARGUMENT_HELP) String bundle) {
        ShellSupport.print(connectionsReport(bundle));
    }

    /**
     * The consuming bundles {@code rouse:connections bundle} accepts, sorted: each as listed ({@code name[id]}) and by
     * its symbolic name alone; for shell completion.
     */
    public Set<String> consumers() {
        Set<String> names = new TreeSet<>();
        for (BundleSelectorView view : views.get()) {
            String owner = view.owner();
            names.add(owner);
            int id = owner.lastIndexOf('[');
            if (id > 0) {
                names.add(owner.substring(0, id));
            }
        }
        return names;
    }

    /** The text of {@code rouse:selector}. */
    public String report() {
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
        for (BundleSelectorView view : sorted()) {
            SelectorStatistics stats = view.statistics();
            Percentiles upcall = stats.upcallDuration();
            out.append(String.format(
                    Locale.ROOT,
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

    /** The text of {@code rouse:connections}. */
    public String connectionsReport() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-40s %12s %10s %8s%n", "bundle", "connections", "listening", "other"));
        for (BundleSelectorView view : sorted()) {
            ConnectionCounts counts = ConnectionCounts.of(view.handles());
            out.append(String.format(
                    Locale.ROOT,
                    "%-40s %12d %10d %8d%n",
                    view.owner(),
                    counts.connections(),
                    counts.listening(),
                    counts.other()));
        }
        return out.toString();
    }

    /** The text of {@code rouse:connections bundle}. */
    public String connectionsReport(String bundle) {
        String wanted = bundle == null ? "" : bundle.trim();
        List<BundleSelectorView> matching = sorted().stream()
                .filter(v -> v.owner().equals(wanted) || v.owner().startsWith(wanted + "["))
                .toList();
        if (matching.isEmpty()) {
            throw new IllegalArgumentException(
                    "no consuming bundle '" + bundle + "' uses the selector service; they are "
                            + sorted().stream().map(BundleSelectorView::owner).toList()
                            + "; usage: rouse:connections [bundle]");
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT, "%-10s %-28s %-28s %-24s %s%n", "kind", "local", "remote", "interest", "dispatch"));
        for (BundleSelectorView view : matching) {
            for (ChannelHandle handle : view.handles()) {
                SelectableChannel channel = handle.channel();
                out.append(String.format(
                        Locale.ROOT,
                        "%-10s %-28s %-28s %-24s %s%n",
                        ConnectionCounts.kind(channel),
                        local(channel),
                        remote(channel),
                        ChannelHandle.describe(handle.interestOps()),
                        handle.dispatch()));
            }
        }
        return out.toString();
    }

    private List<BundleSelectorView> sorted() {
        return views.get().stream()
                .sorted(Comparator.comparing(BundleSelectorView::owner))
                .toList();
    }

    private static String local(SelectableChannel channel) {
        try {
            SocketAddress address = channel instanceof SocketChannel s
                    ? s.getLocalAddress()
                    : channel instanceof ServerSocketChannel s ? s.getLocalAddress() : null;
            return address == null ? "-" : address.toString();
        } catch (IOException closed) {
            return "(closed)";
        }
    }

    private static String remote(SelectableChannel channel) {
        try {
            SocketAddress address = channel instanceof SocketChannel s ? s.getRemoteAddress() : null;
            return address == null ? "-" : address.toString();
        } catch (IOException closed) {
            return "(closed)";
        }
    }

    /** How one bundle's registrations divide into connected sockets, listening sockets and other channels. */
    record ConnectionCounts(int connections, int listening, int other) {

        static ConnectionCounts of(Collection<ChannelHandle> handles) {
            int connections = 0;
            int listening = 0;
            int other = 0;
            for (ChannelHandle handle : handles) {
                switch (kind(handle.channel())) {
                    case "connection" -> connections++;
                    case "listening" -> listening++;
                    default -> other++;
                }
            }
            return new ConnectionCounts(connections, listening, other);
        }

        static String kind(SelectableChannel channel) {
            if (channel instanceof SocketChannel) {
                return "connection";
            }
            if (channel instanceof ServerSocketChannel) {
                return "listening";
            }
            return "other";
        }
    }
}
