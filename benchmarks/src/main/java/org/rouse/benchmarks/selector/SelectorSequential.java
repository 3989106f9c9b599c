package org.rouse.benchmarks.selector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;
import org.rouse.selector.Dispatch;

/**
 * {@code selector-sequential-1}, {@code -16} and {@code -256}: closed-loop clients on loopback, each making chains
 * of {@value SequentialVariant#CHAIN} request/reply calls ({@value EchoServer#MESSAGE_BYTES}-byte messages echoed)
 * back to back over its own connection, against the Rouse selector (pool dispatch, inline, and at one connection
 * the omniORB bug: no wakeup after an upcall with a 50 ms select timeout), a blocking thread-per-connection server,
 * a single-thread NIO server and Netty NIO (handler offloaded to an executor group, and inline).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness selector-sequential-16 --quick
 * }</pre>
 */
public final class SelectorSequential implements Scenario {

    static final String NIO_INLINE = "NIO, 1 thread, inline";
    static final String BLOCKING = "blocking, thread per connection";
    static final String NETTY_OFFLOADED = "Netty NIO, offloaded";

    /** The omniORB bug's select timeout: with no wakeup after an upcall, each call waits for it. */
    static final long BUGGY_SELECT_TIMEOUT_MS = 50;

    private final int connections;

    /** The scenario with {@code connections} client connections (the issue asks for 1, 16 and 256). */
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
                + " on loopback, each owned by a blocking client thread making chains of " + SequentialVariant.CHAIN
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
        List<Variant> variants = new ArrayList<>();
        variants.add(new SequentialVariant(
                "Rouse, pool dispatch",
                "Rouse selector front + NIO engine, default configuration: the handler runs on the worker pool, the"
                        + " channel is re-armed and the loop woken when it returns",
                connections,
                () -> new RouseEchoServer(Dispatch.POOL, 0, true)));
        variants.add(new SequentialVariant(
                "Rouse, inline",
                "Rouse selector front + NIO engine, the handler registered with Dispatch.INLINE (runs on the loop)",
                connections,
                () -> new RouseEchoServer(Dispatch.INLINE, 0, true)));
        if (connections == 1) {
            variants.add(new SequentialVariant(
                    "Rouse, pool, no wakeup after upcall (omniORB bug)",
                    "pool dispatch with wakeup.after.upcall=false and select.timeout.ms=" + BUGGY_SELECT_TIMEOUT_MS
                            + ": the re-arm waits for the select timeout, as in omniORB's thread pool mode (72 ms"
                            + " per call historically); one connection only, so it does not dominate the run",
                    connections,
                    () -> new RouseEchoServer(Dispatch.POOL, BUGGY_SELECT_TIMEOUT_MS, false)));
        }
        variants.add(new SequentialVariant(
                BLOCKING,
                "java.net.ServerSocket, one blocking thread per connection (p99 baseline)",
                connections,
                BlockingEchoServer::new));
        variants.add(new SequentialVariant(
                NIO_INLINE,
                "a plain Selector loop on one thread that accepts and echoes inline (p50 baseline)",
                connections,
                NioEchoServer::new));
        variants.add(new SequentialVariant(
                NETTY_OFFLOADED,
                "Netty 4.2 NIO, one event loop thread, the echo handler on a DefaultEventExecutorGroup of "
                        + NettyEchoServer.OFFLOAD_THREADS + " threads (throughput baseline)",
                connections,
                () -> new NettyEchoServer(true)));
        variants.add(new SequentialVariant(
                "Netty NIO, inline",
                "Netty 4.2 NIO, one event loop thread, the echo handler on the loop",
                connections,
                () -> new NettyEchoServer(false)));
        return variants;
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                List.of(
                        Metrics.P50_US,
                        Metrics.P99_US,
                        Metrics.P999_US,
                        SelectorMetrics.CALLS_PER_S,
                        SelectorMetrics.PROCESS_CPU_PER_CALL_US,
                        SelectorMetrics.WAKEUPS_PER_CALL,
                        SelectorMetrics.WAKEUPS_PER_SELECT),
                NIO_INLINE,
                List.of(Metrics.P50_US, Metrics.P99_US, SelectorMetrics.CALLS_PER_S),
                Map.of(Metrics.P99_US, BLOCKING, SelectorMetrics.CALLS_PER_S, NETTY_OFFLOADED),
                true);
    }
}
