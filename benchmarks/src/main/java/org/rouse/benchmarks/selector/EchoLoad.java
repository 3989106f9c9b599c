package org.rouse.benchmarks.selector;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.scenario.RoundWorkers;

/**
 * One echo server under {@code connections} closed-loop clients, run round by round: each client thread
 * ({@code rouse-bench-selector-client-N}) owns one blocking connection and makes chains of {@value #CHAIN}
 * request/reply calls back to back, timing every call, then thinks (parks until a deadline) before the next chain,
 * until the round's deadline. Between rounds the clients wait at a barrier and the server's threads are blocked.
 *
 * <pre>{@code
 * try (EchoLoad load = EchoLoad.open(ServerSetup.blocking(), 16, TimeUnit.MILLISECONDS.toNanos(60))) {
 *     EchoLoad.Round round = load.round(TimeUnit.SECONDS.toNanos(1));
 *     double p99 = round.calls().percentileMicros(99);
 * }
 * }</pre>
 */
final class EchoLoad implements AutoCloseable {

    /*
     * Implementation notes.
     *
     * The driver writes roundStart and roundDeadline before RoundWorkers.round releases the clients through its
     * start barrier, and reads the clients' histograms after the end barrier: the barriers order both hand-overs,
     * so those fields need no volatile. With a think time, client i starts its first chain i/connections of a think
     * time into the round, so that the clients do not all call at the same moment; each client stops at the
     * round's deadline (a think never runs past it, so a round lasts its budget plus at most one chain).
     */

    /** Calls per chain. */
    static final int CHAIN = 5;

    /** Calls that start this early in a round also go into {@link Round#firstCalls()}. */
    static final long FIRST_CALLS_WINDOW_NANOS = 100_000_000L;

    private final EchoServer server;
    private final EchoClient[] clients;
    private final long thinkNanos;
    /** Each client's calls of the current round; written by the client thread, read after the round's barrier. */
    private final LatencyHistogram[] calls;
    /** The same, only the calls that started in the first {@link #FIRST_CALLS_WINDOW_NANOS} of the round. */
    private final LatencyHistogram[] firstCalls;

    private RoundWorkers workers;
    /** Written by the driver before the round's start barrier, read by the clients after it. */
    private long roundStart;

    private long roundDeadline;
    /** The first failure of a client thread; read by the driver after the round. */
    private volatile Exception failure;

    private EchoLoad(EchoServer server, int connections, long thinkNanos) {
        this.server = server;
        this.clients = new EchoClient[connections];
        this.thinkNanos = thinkNanos;
        this.calls = new LatencyHistogram[connections];
        this.firstCalls = new LatencyHistogram[connections];
    }

    /**
     * Starts {@code setup}'s server, connects the clients and starts their threads (blocked until the first round).
     *
     * @param thinkNanos the pause after each chain; 0 = none
     */
    static EchoLoad open(ServerSetup setup, int connections, long thinkNanos) throws Exception {
        if (connections < 1 || thinkNanos < 0) {
            throw new IllegalArgumentException(
                    "need connections >= 1 and thinkNanos >= 0: " + connections + ", " + thinkNanos);
        }
        EchoLoad load = new EchoLoad(setup.factory().start(), connections, thinkNanos);
        try {
            for (int i = 0; i < connections; i++) {
                load.clients[i] = new EchoClient(load.server.address());
            }
            RoundWorkers workers = new RoundWorkers("rouse-bench-selector-client", connections, load::chains);
            workers.start();
            load.workers = workers;
            return load;
        } catch (Exception e) {
            load.close();
            throw e;
        }
    }

    /** The server under load (for its engine counters). */
    EchoServer server() {
        return server;
    }

    /** What one round measured: its length and every client's calls merged. */
    record Round(long elapsedNanos, LatencyHistogram calls, LatencyHistogram firstCalls) {}

    /** Runs one round of about {@code budgetNanos} and returns what it measured. */
    Round round(long budgetNanos) throws Exception {
        roundStart = System.nanoTime();
        roundDeadline = roundStart + budgetNanos;
        workers.round(EchoLoad::parkUntil, budgetNanos);
        long elapsed = System.nanoTime() - roundStart;
        if (failure != null) {
            throw new IllegalStateException("a client failed", failure);
        }
        LatencyHistogram all = new LatencyHistogram();
        LatencyHistogram first = new LatencyHistogram();
        for (int i = 0; i < calls.length; i++) {
            all.add(calls[i]);
            first.add(firstCalls[i]);
        }
        return new Round(elapsed, all, first);
    }

    private void chains(int index) {
        EchoClient client = clients[index];
        LatencyHistogram latency = new LatencyHistogram();
        LatencyHistogram first = new LatencyHistogram();
        long firstWindowEnd = roundStart + FIRST_CALLS_WINDOW_NANOS;
        long deadline = roundDeadline;
        try {
            if (thinkNanos > 0) {
                parkUntil(Math.min(deadline, roundStart + thinkNanos * index / clients.length));
            }
            while (!workers.stopped() && failure == null && System.nanoTime() - deadline < 0) {
                long end = 0;
                for (int call = 0; call < CHAIN; call++) {
                    long start = System.nanoTime();
                    client.call();
                    end = System.nanoTime();
                    latency.recordNanos(end - start);
                    if (start - firstWindowEnd < 0) {
                        first.recordNanos(end - start);
                    }
                }
                if (thinkNanos > 0) {
                    parkUntil(Math.min(deadline, end + thinkNanos));
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        calls[index] = latency;
        firstCalls[index] = first;
    }

    /** Parks (no polling) until {@code deadline} ({@code System.nanoTime()} based). */
    static void parkUntil(long deadline) {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (workers != null) {
                workers.close();
            }
        } finally {
            try {
                for (EchoClient client : clients) {
                    if (client != null) {
                        client.close();
                    }
                }
            } finally {
                server.close();
            }
        }
    }
}
