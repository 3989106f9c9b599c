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
 * {@code selector-bursts}: {@value #CONNECTIONS} clients call back to back for a burst of 1 s, then all are idle for
 * exactly 15 s, four times. omniORB let idle pool threads die after a fixed 10 s, so every burst of calls re-created
 * its threads; Rouse's default pool keeps them 60 s and hands work to the most recently idle thread, so after the
 * first burst no thread should be started. Variants: Rouse default, Rouse with omniORB's 10 s idle timeout, Rouse
 * handing work to the longest idle thread, the blocking thread-per-connection server and Netty offloaded.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness selector-bursts --quick
 * }</pre>
 */
public final class SelectorBursts implements Scenario {

    static final int CONNECTIONS = 64;

    static final String ROUSE_OMNIORB_IDLE = "Rouse, pool, idle timeout 10 s (omniORB)";

    /** omniORB's fixed idle timeout of its pool threads. */
    static final long OMNIORB_IDLE_TIMEOUT_SECONDS = 10;

    private static final BurstVariant.Plan FULL =
            new BurstVariant.Plan(4, Duration.ofSeconds(1), Duration.ofSeconds(15));
    /** Gaps far below the 10 s idle timeout: the figures mean nothing, the run only shows everything works. */
    private static final BurstVariant.Plan QUICK =
            new BurstVariant.Plan(3, Duration.ofMillis(200), Duration.ofMillis(500));

    @Override
    public String name() {
        return "selector-bursts";
    }

    @Override
    public String description() {
        return CONNECTIONS + " client connections on loopback, each owned by a blocking client thread that makes"
                + " chains of " + EchoLoad.CHAIN + " request/reply calls (" + EchoServer.MESSAGE_BYTES + "-byte"
                + " requests echoed) back to back during a burst of "
                + FULL.burst().toMillis() + " ms; then every"
                + " client is idle for exactly " + FULL.idleGap().toSeconds() + " s (from the last reply of one burst"
                + " to the start of the next), " + FULL.bursts() + " bursts (with --quick: " + QUICK.bursts()
                + " bursts of " + QUICK.burst().toMillis() + " ms, "
                + QUICK.idleGap().toMillis() + " ms apart,"
                + " shorter than any idle timeout, so only a smoke test). Each variant runs its whole sequence of"
                + " bursts and gaps as one round while every other variant is open but idle (their threads"
                + " blocked), so nothing else runs during a variant's gaps; the variants run one after the other."
                + " Threads are counted from the end of one burst to the end of the next (gap included): threads"
                + " started by the whole JVM (`ThreadMXBean.getTotalStartedThreadCount()`; every client and"
                + " connection exists before the first burst) and, for Rouse, the engine counters"
                + " `pool.threads.created` and `pool.threads.retired`, for the first burst and as the mean over"
                + " the later bursts (the goal: 0 with the default configuration; omniORB's 10 s idle timeout"
                + " should re-create the pool threads every burst). Latency (µs), throughput and process CPU per"
                + " call are those of the later bursts; the p99 of the calls started in the first 100 ms of a burst"
                + " shows what starting threads costs the first calls. The blocking server starts its threads as the"
                + " clients connect and Netty its handler threads as the connections register, both before the"
                + " first burst. The variants run in the table's order, so the first one's first burst also warms"
                + " up the JIT (the clients' code is shared): compare first-burst latencies with care. Ratios are"
                + " against Rouse's default.";
    }

    @Override
    public List<Variant> variants(Options options) {
        BurstVariant.Plan plan = options.quick() ? QUICK : FULL;
        return List.of(
                        ServerSetup.rousePool(),
                        ServerSetup.rouseGrowAtOnce(),
                        ServerSetup.rouse(
                                ROUSE_OMNIORB_IDLE,
                                "pool dispatch, take-over off, with pool.idle.timeout.seconds="
                                        + OMNIORB_IDLE_TIMEOUT_SECONDS
                                        + " (omniORB's fixed value): workers above the core size end during each"
                                        + " gap",
                                ServerSetup.POOL_PATH.withIdleTimeoutSeconds(OMNIORB_IDLE_TIMEOUT_SECONDS)),
                        ServerSetup.rouse(
                                "Rouse, pool, longest idle first",
                                "pool dispatch, take-over off, with pool.most.recently.idle.first=false: an upcall goes to the"
                                        + " worker idle the longest (the idle workers take turns), so none stays idle long enough to retire while calls flow",
                                ServerSetup.POOL_PATH.withMostRecentlyIdleFirst(false)),
                        ServerSetup.blocking(),
                        ServerSetup.nettyOffloaded())
                .stream()
                .<Variant>map(s -> new BurstVariant(s, CONNECTIONS, plan))
                .toList();
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                List.of(
                        SelectorMetrics.THREADS_STARTED_FIRST_BURST,
                        SelectorMetrics.THREADS_STARTED_LATER_BURST,
                        SelectorMetrics.POOL_THREADS_CREATED_FIRST_BURST,
                        SelectorMetrics.POOL_THREADS_CREATED_LATER_BURST,
                        SelectorMetrics.POOL_THREADS_RETIRED_LATER_BURST,
                        Metrics.P50_US,
                        Metrics.P99_US,
                        SelectorMetrics.P99_FIRST_100MS_FIRST_BURST_US,
                        SelectorMetrics.P99_FIRST_100MS_LATER_BURSTS_US,
                        SelectorMetrics.CALLS_PER_S,
                        SelectorMetrics.PROCESS_CPU_PER_CALL_US),
                ServerSetup.ROUSE_POOL,
                List.of(Metrics.P99_US, SelectorMetrics.P99_FIRST_100MS_LATER_BURSTS_US),
                true);
    }

    /** One round per variant, no warm-up: the round is the variant's whole sequence of bursts and gaps. */
    @Override
    public RoundPlan plan(Options options) {
        return new RoundPlan(0, 1, (options.quick() ? QUICK : FULL).total());
    }
}
