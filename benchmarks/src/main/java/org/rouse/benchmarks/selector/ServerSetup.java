package org.rouse.benchmarks.selector;

import java.util.Objects;
import org.rouse.benchmarks.selector.BenchmarkEngines.Tuning;
import org.rouse.selector.Dispatch;

/**
 * One way of serving the echo connections that the selector scenarios compare: the row label, what it is, and how
 * to start it. The same setup carries the same name in every selector scenario.
 *
 * <pre>{@code
 * EchoServer server = ServerSetup.rouse("Rouse, pool, 2 loops", "two select loops", Tuning.DEFAULTS.withLoops(2))
 *         .factory()
 *         .start();
 * }</pre>
 *
 * @param name the row label, unique within a scenario
 * @param description one sentence for the report
 * @param factory starts a fresh server
 */
record ServerSetup(String name, String description, Factory factory) {

    static final String ROUSE_POOL = "Rouse, pool dispatch";
    static final String NIO_INLINE = "NIO, 1 thread, inline";
    static final String BLOCKING = "blocking, thread per connection";
    static final String NETTY_OFFLOADED = "Netty NIO, offloaded";

    /** The omniORB bug's select timeout: with no wakeup after an upcall, each call waits for it. */
    static final long BUGGY_SELECT_TIMEOUT_MS = 50;

    /** Starts the server a variant measures. */
    @FunctionalInterface
    interface Factory {
        EchoServer start() throws Exception;
    }

    ServerSetup {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(factory, "factory");
    }

    /** The Rouse front and NIO engine with pool dispatch and the engine's settings {@code tuning}. */
    static ServerSetup rouse(String name, String description, Tuning tuning) {
        return new ServerSetup(name, description, () -> new RouseEchoServer(Dispatch.POOL, tuning));
    }

    /** Rouse with pool dispatch and the default configuration. */
    static ServerSetup rousePool() {
        return rouse(
                ROUSE_POOL,
                "Rouse selector front + NIO engine, default configuration: the loop thread that finds a request"
                        + " ready runs the handler itself while the loop's second thread stands by, and that thread"
                        + " takes the selecting over if one handler runs 1 ms or more (loop.handover=true,"
                        + " loop.takeover.after.micros=1000); while it is busy, handlers run on the worker pool,"
                        + " whose worker watches its channel for up to 1 ms after a reply (watch.period.us=1000,"
                        + " watch.adaptive=true)",
                Tuning.DEFAULTS);
    }

    /**
     * The defaults with the take-over off: the pool's and the watch's variants measure what they change on the path
     * of the hand-over before each upcall, where those features carry the calls.
     */
    static final Tuning POOL_PATH = Tuning.DEFAULTS.withLoopTakeoverAfterMicros(0);

    /** Rouse's pool dispatch handing the selecting over before each upcall a loop thread runs (no take-over). */
    static ServerSetup rouseHandoverFirst() {
        return rouse(
                "Rouse, pool, hand-over before each upcall",
                "pool dispatch with loop.takeover.after.micros=0: the loop thread that finds a batch's only request"
                        + " ready hands the selecting to the loop's second thread, if it is parked, and runs the"
                        + " handler itself (a wake-up per call), and watches the channel after it; a batch of several"
                        + " goes to the pool",
                POOL_PATH);
    }

    /** Rouse's pool dispatch with every upcall on a worker (the default before the loop hand-over). */
    static ServerSetup rouseNoHandover() {
        return rouse(
                "Rouse, pool, no loop hand-over",
                "pool dispatch with loop.handover=false: the loop hands every request to a worker of the pool",
                Tuning.DEFAULTS.withLoopHandover(false));
    }

    /** Rouse's pool dispatch watching every channel after every upcall (the default before the adaptive watch). */
    static ServerSetup rouseWatchEveryUpcall() {
        return rouse(
                "Rouse, pool, watch after every upcall",
                "pool dispatch, take-over off, with watch.adaptive=false: every upcall's thread watches its channel for up to 1 ms,"
                        + " also a new connection's and after a watch that missed",
                POOL_PATH.withWatchAdaptive(false));
    }

    /** Rouse's pool dispatch, the pool growing at once when no worker is idle (no grace before growing). */
    static ServerSetup rouseGrowAtOnce() {
        return rouse(
                "Rouse, pool, grow at once",
                "pool dispatch, take-over off, with pool.grow.after.micros=0: with no idle worker an upcall starts a thread at once"
                        + " (up to the maximum) instead of waiting up to 2 ms for a busy worker",
                POOL_PATH.withGrowAfterMicros(0));
    }

    /** Rouse's pool dispatch without the watch period: every re-arm goes through the loop. */
    static ServerSetup rouseNoWatch() {
        return rouse(
                "Rouse, pool, no watch",
                "pool dispatch, take-over off, with watch.period.us=0: when the handler returns the channel is re-armed and the loop"
                        + " woken, and the next request is handed from the loop to a worker again",
                POOL_PATH.withWatchPeriodMicros(0));
    }

    /** Rouse with the handler on the loop. */
    static ServerSetup rouseInline() {
        return new ServerSetup(
                "Rouse, inline",
                "Rouse selector front + NIO engine, the handler registered with Dispatch.INLINE (runs on the loop)",
                () -> new RouseEchoServer(Dispatch.INLINE, Tuning.DEFAULTS));
    }

    /** Rouse with the post-upcall wakeup off and a short select timeout: omniORB's thread pool mode. */
    static ServerSetup omniOrbBug() {
        return rouse(
                "Rouse, pool, no wakeup after upcall (omniORB bug)",
                "pool dispatch with wakeup.after.upcall=false and select.timeout.ms=" + BUGGY_SELECT_TIMEOUT_MS
                        + " and loop.handover=false: the re-arm waits for the select timeout, as in omniORB's thread pool mode (72 ms"
                        + " per call historically); one connection only, so it does not dominate the run",
                Tuning.DEFAULTS
                        .withSelect(BUGGY_SELECT_TIMEOUT_MS, false)
                        .withWatchPeriodMicros(0)
                        .withLoopHandover(false)); // omniORB's pool: every upcall on a worker
    }

    /**
     * Rouse with a post-upcall watch period (omniORB's {@code connectionWatchPeriod}): below 1 ms the worker polls,
     * from 1 ms on it blocks in select.
     */
    static ServerSetup rouseWatch(long micros) {
        String period = micros % 1000 == 0 ? micros / 1000 + " ms" : micros + " µs";
        return rouse(
                "Rouse, pool, watch " + period,
                "pool dispatch, take-over off, with watch.period.us=" + micros
                        + ": after an upcall the worker keeps watching its"
                        + " channel for up to " + period + " for the next request ("
                        + (micros < 1000 ? "polling selectNow" : "blocking in select") + ") before handing it back"
                        + " to the loop",
                POOL_PATH.withWatchPeriodMicros(micros));
    }

    /** Rouse with two select loops. */
    static ServerSetup rouseTwoLoops() {
        return rouse(
                "Rouse, pool, 2 loops",
                "pool dispatch with loops=2: the connections are spread across two select loops",
                Tuning.DEFAULTS.withLoops(2));
    }

    /** The p99 baseline. */
    static ServerSetup blocking() {
        return new ServerSetup(
                BLOCKING,
                "java.net.ServerSocket, one blocking thread per connection (p99 baseline)",
                BlockingEchoServer::new);
    }

    /** The p50 baseline. */
    static ServerSetup nioInline() {
        return new ServerSetup(
                NIO_INLINE,
                "a plain Selector loop on one thread that accepts and echoes inline (p50 baseline)",
                NioEchoServer::new);
    }

    /** The throughput baseline: Netty with the same hand-off as Rouse's pool dispatch. */
    static ServerSetup nettyOffloaded() {
        return new ServerSetup(
                NETTY_OFFLOADED,
                "Netty 4.2 NIO, one event loop thread, the echo handler on a DefaultEventExecutorGroup of "
                        + NettyEchoServer.OFFLOAD_THREADS + " threads (throughput baseline)",
                () -> new NettyEchoServer(true));
    }

    /** Netty with the handler on the loop. */
    static ServerSetup nettyInline() {
        return new ServerSetup(
                "Netty NIO, inline",
                "Netty 4.2 NIO, one event loop thread, the echo handler on the loop",
                () -> new NettyEchoServer(false));
    }
}
