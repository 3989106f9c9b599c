package org.rouse.benchmarks.selector;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code selector-think-60}: like {@code selector-sequential-16}, but each client thinks 60 ms (parks until a
 * deadline) after every chain of {@value EchoLoad#CHAIN} calls, as omniNames' clients do between their
 * {@code list}/{@code next_n}/{@code destroy} sequences. The loop and the pool then go idle between chains, so every
 * chain's first call pays for waking them, and a pool that let its threads go would start new ones: the report
 * counts the threads started per round (whole JVM) and, for Rouse, the pool threads created and retired.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness selector-think-60 --quick
 * }</pre>
 */
public final class SelectorThinkTime implements Scenario {

    /** Longer rounds than the default: with the think time a round has ~25 chains per client, not thousands. */
    private static final RoundPlan FULL = new RoundPlan(1, 10, Duration.ofMillis(1_500));

    private static final RoundPlan QUICK = new RoundPlan(1, 3, Duration.ofMillis(250));

    private final int connections;
    private final long thinkMillis;

    /** The scenario with {@code connections} clients thinking {@code thinkMillis} after each chain. */
    public SelectorThinkTime(int connections, long thinkMillis) {
        if (connections < 1 || thinkMillis < 1) {
            throw new IllegalArgumentException(
                    "need connections >= 1 and thinkMillis >= 1: " + connections + ", " + thinkMillis);
        }
        this.connections = connections;
        this.thinkMillis = thinkMillis;
    }

    @Override
    public String name() {
        return "selector-think-" + thinkMillis;
    }

    @Override
    public String description() {
        return connections + " client connections on loopback, each owned by a blocking client thread making chains"
                + " of " + EchoLoad.CHAIN + " request/reply calls back to back (" + EchoServer.MESSAGE_BYTES
                + "-byte requests echoed), then thinking " + thinkMillis + " ms (parked until a deadline; the"
                + " clients' first chains are staggered across one think time so they do not call in step). Between"
                + " chains the server goes idle, so each chain's first call pays for waking the loop and a worker."
                + " Per call: latency percentiles (µs, every call of the round), process CPU per call, and for Rouse"
                + " the wakeups written per call. Per round: threads started by the whole JVM"
                + " (`ThreadMXBean.getTotalStartedThreadCount()`; every client and connection exists before the"
                + " first round, so these are server threads) and, for Rouse, the engine counters"
                + " `pool.threads.created` and `pool.threads.retired`; the goal is 0 after the warm-up round. The"
                + " p50 ratio is against the single-thread inline NIO server, the p99 ratio against the blocking"
                + " thread-per-connection server. Each cell is the median over the measured rounds.";
    }

    @Override
    public List<Variant> variants(Options options) {
        return SequentialVariant.of(
                List.of(
                        ServerSetup.rousePool(),
                        ServerSetup.rouseHandoverFirst(),
                        ServerSetup.rouseNoHandover(),
                        ServerSetup.rouseWatchEveryUpcall(),
                        ServerSetup.rouseInline(),
                        ServerSetup.rouseNoWatch(),
                        ServerSetup.rouseGrowAtOnce(),
                        ServerSetup.rouseTwoLoops(),
                        ServerSetup.blocking(),
                        ServerSetup.nioInline(),
                        ServerSetup.nettyOffloaded(),
                        ServerSetup.nettyInline()),
                connections,
                TimeUnit.MILLISECONDS.toNanos(thinkMillis));
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                SelectorMetrics.callColumns(
                        SelectorMetrics.THREADS_STARTED,
                        SelectorMetrics.POOL_THREADS_CREATED,
                        SelectorMetrics.POOL_THREADS_RETIRED),
                ServerSetup.NIO_INLINE,
                List.of(Metrics.P50_US, Metrics.P99_US),
                Map.of(Metrics.P99_US, ServerSetup.BLOCKING),
                true);
    }

    @Override
    public RoundPlan plan(Options options) {
        return options.quick() ? QUICK : FULL;
    }
}
