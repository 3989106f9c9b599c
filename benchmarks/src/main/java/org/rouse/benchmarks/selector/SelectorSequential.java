package org.rouse.benchmarks.selector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code selector-sequential-1}, {@code -16} and {@code -256}: closed-loop clients on loopback, each making chains
 * of {@value EchoLoad#CHAIN} request/reply calls ({@value EchoServer#MESSAGE_BYTES}-byte messages echoed) back to
 * back over its own connection, against the Rouse selector (pool dispatch, inline, without the watch period and with a 100 µs one, two loops
 * from 16 connections on, and at one connection the omniORB bug: no wakeup after an upcall with a 50 ms select
 * timeout), a blocking thread-per-connection server, a single-thread NIO server and Netty NIO (handler offloaded to
 * an executor group, and inline).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness selector-sequential-16 --quick
 * }</pre>
 */
public final class SelectorSequential implements Scenario {

    private final int connections;

    /** The scenario with {@code connections} client connections ({@code Scenarios} runs 1, 16 and 256). */
    public SelectorSequential(int connections) {
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be >= 1: " + connections);
        }
        this.connections = connections;
    }

    @Override
    public String name() {
        return "selector-sequential-" + connections;
    }

    @Override
    public String description() {
        return connections + (connections == 1 ? " client connection" : " client connections")
                + " on loopback, each owned by a blocking client thread making chains of " + EchoLoad.CHAIN
                + " request/reply calls back to back (" + EchoServer.MESSAGE_BYTES + "-byte requests echoed; no"
                + " think time). Per call: latency percentiles (µs, HdrHistogram over every call of the round),"
                + " throughput over all connections, CPU of the whole process per call (clients included: the same"
                + " client code for every variant, so differences are the server's), and for Rouse the wakeups"
                + " written to the selector per call and per select cycle (engine counters `wakeups.written` and"
                + " `select.cycles`; the goal is at most one per cycle). The p50 ratio is against"
                + " the single-thread inline NIO server (the least a selector server can do), the p99 ratio against"
                + " the blocking thread-per-connection server, the throughput ratio against Netty with the handler"
                + " offloaded (the same hand-off as Rouse's pool dispatch). Each cell is the median over the"
                + " measured rounds.";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<ServerSetup> setups = new ArrayList<>();
        setups.add(ServerSetup.rousePool());
        setups.add(ServerSetup.rouseHandoverFirst());
        setups.add(ServerSetup.rouseNoHandover());
        setups.add(ServerSetup.rouseWatchEveryUpcall());
        setups.add(ServerSetup.rouseInline());
        if (connections == 1) {
            setups.add(ServerSetup.omniOrbBug()); // one connection only, so it does not dominate the run
        }
        setups.add(ServerSetup.rouseWatch(100));
        setups.add(ServerSetup.rouseNoWatch());
        setups.add(ServerSetup.rouseGrowAtOnce());
        if (connections > 1) {
            setups.add(ServerSetup.rouseTwoLoops()); // one connection would use one loop only
        }
        setups.add(ServerSetup.blocking());
        setups.add(ServerSetup.nioInline());
        setups.add(ServerSetup.nettyOffloaded());
        setups.add(ServerSetup.nettyInline());
        return SequentialVariant.of(setups, connections, 0);
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                SelectorMetrics.callColumns(SelectorMetrics.WAKEUPS_PER_SELECT),
                ServerSetup.NIO_INLINE,
                List.of(Metrics.P50_US, Metrics.P99_US, SelectorMetrics.CALLS_PER_S),
                Map.of(Metrics.P99_US, ServerSetup.BLOCKING, SelectorMetrics.CALLS_PER_S, ServerSetup.NETTY_OFFLOADED),
                true);
    }
}
