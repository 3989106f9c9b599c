package org.rouse.benchmarks.selector;

import java.time.Duration;
import java.util.List;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code selector-storm}: a reconnect storm. Each round opens {@value #SEQUENTIAL} connections one after the other,
 * then {@value #CONCURRENT} at once, against the Rouse echo server (default configuration, listening socket bound
 * with a backlog of {@value EchoServer#BACKLOG}), the blocking thread-per-connection server and Netty. A client
 * whose SYN is dropped (listen backlog overflow) waits for its retransmission, 1 s on Linux: the "connects > 1 s"
 * columns count them. The concurrent clients run in a child JVM; each process needs about {@code CONCURRENT + 1000}
 * descriptors ({@code ulimit -n}):
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness selector-storm
 * }</pre>
 */
public final class SelectorStorm implements Scenario {

    static final int SEQUENTIAL = 2_000;
    static final int CONCURRENT = 10_000;
    private static final int QUICK_CONCURRENT = 1_000;

    @Override
    public String name() {
        return "selector-storm";
    }

    @Override
    public String description() {
        return "A connection storm on loopback. Each round: " + SEQUENTIAL + " connections opened one after the other"
                + " by one blocking client thread, each making one " + EchoServer.MESSAGE_BYTES + "-byte echo call"
                + " right after its connect (time until all are served; connects that took over 1 s, i.e. waited"
                + " for a SYN retransmission after a listen backlog overflow; the slowest connect), then reset; then "
                + CONCURRENT + " non-blocking connects issued back to back from one client thread and driven by one"
                + " selector, each making one echo call once connected (time from the first connect until all are"
                + " served; connects over 1 s; the slowest). With the " + CONCURRENT + " connections open and idle,"
                + " the server JVM's heap (after System.gc()) and RSS are compared with the moment before the storm, per"
                + " connection. Every server binds"
                + " with a backlog of " + EchoServer.BACKLOG
                + " (capped by net.core.somaxconn). p50/p99/max (and the chart) are"
                + " those of the sequential connects. Ratios: against Netty offloaded. With --quick: "
                + QUICK_CONCURRENT
                + " concurrent connects. The concurrent clients run in a child JVM, so the heap and RSS figures are"
                + " the server process's own (with the blocking server's thread stacks in RSS, not in the heap)."
                + " After each phase's reset the round waits until the server has closed every connection, so no"
                + " phase, of this variant or the next, is measured while a server still works through earlier"
                + " hang-ups.";
    }

    @Override
    public List<Variant> variants(Options options) {
        int concurrent = options.quick() ? QUICK_CONCURRENT : CONCURRENT;
        return List.of(
                        ServerSetup.rousePool(),
                        ServerSetup.rouseNoHandover(),
                        ServerSetup.rouseWatchEveryUpcall(),
                        ServerSetup.blocking(),
                        ServerSetup.nioInline(),
                        ServerSetup.nettyOffloaded())
                .stream()
                .<Variant>map(s -> new StormVariant(s, SEQUENTIAL, concurrent))
                .toList();
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                List.of(
                        StormVariant.SEQUENTIAL_MS,
                        StormVariant.SEQUENTIAL_SLOW,
                        StormVariant.SEQUENTIAL_MAX_MS,
                        StormVariant.CONCURRENT_MS,
                        StormVariant.CONCURRENT_SLOW,
                        StormVariant.CONCURRENT_MAX_MS,
                        StormVariant.HEAP_PER_CONNECTION,
                        StormVariant.RSS_PER_CONNECTION,
                        Metrics.P50_US,
                        Metrics.P99_US),
                ServerSetup.NETTY_OFFLOADED,
                List.of(StormVariant.SEQUENTIAL_MS, StormVariant.CONCURRENT_MS, StormVariant.HEAP_PER_CONNECTION),
                true);
    }

    /** One warm-up round and three measured rounds; a round is the whole storm, whatever the budget. */
    @Override
    public RoundPlan plan(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(100))
                : new RoundPlan(1, 3, Duration.ofSeconds(1));
    }
}
