package org.rouse.benchmarks.selector;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.measure.ProcessCpu;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.RoundWorkers;
import org.rouse.benchmarks.scenario.Variant;

/**
 * One server under {@code connections} closed-loop clients: each client thread ({@code rouse-bench-selector-client-N})
 * owns one blocking connection and makes chains of {@value #CHAIN} request/reply calls back to back, timing every
 * call, until the round ends (checked between chains). Between rounds the clients wait at a barrier and the
 * server's threads are blocked.
 */
final class SequentialVariant implements Variant {

    /** Calls per chain. */
    static final int CHAIN = 5;

    /** Starts the server a variant measures. */
    @FunctionalInterface
    interface ServerFactory {
        EchoServer start() throws Exception;
    }

    private final String name;
    private final String description;
    private final int connections;
    private final ServerFactory factory;

    private EchoServer server;
    private EchoClient[] clients;
    private RoundWorkers workers;
    /** Each client's calls of the current round; written by the client thread, read after the round's barrier. */
    private LatencyHistogram[] calls;
    /** The first failure of a client thread; read by runRound after the round. */
    private volatile Exception failure;

    SequentialVariant(String name, String description, int connections, ServerFactory factory) {
        this.name = name;
        this.description = description;
        this.connections = connections;
        this.factory = factory;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void open() throws Exception {
        server = factory.start();
        clients = new EchoClient[connections];
        calls = new LatencyHistogram[connections];
        try {
            for (int i = 0; i < connections; i++) {
                clients[i] = new EchoClient(server.address());
            }
        } catch (Exception e) {
            close(); // the runner closes only variants that opened
            throw e;
        }
        RoundWorkers started = new RoundWorkers("rouse-bench-selector-client", connections, this::chains);
        started.start();
        workers = started;
    }

    private void chains(int index) {
        EchoClient client = clients[index];
        LatencyHistogram latency = new LatencyHistogram();
        try {
            while (!workers.stopped() && failure == null) {
                for (int call = 0; call < CHAIN; call++) {
                    long start = System.nanoTime();
                    client.call();
                    latency.recordNanos(System.nanoTime() - start);
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        calls[index] = latency;
    }

    @Override
    public Measurement runRound(Duration budget) throws Exception {
        Map<String, Long> countersBefore = server.engineCounters();
        long cpuBefore = ProcessCpu.nanos();
        long elapsed = workers.round(SequentialVariant::parkUntil, budget.toNanos());
        long cpu = ProcessCpu.nanos() - cpuBefore;
        Map<String, Long> countersAfter = server.engineCounters();
        double wakeups = increase(countersBefore, countersAfter, "wakeups.written");
        double selectCycles = increase(countersBefore, countersAfter, "select.cycles");
        if (failure != null) {
            throw new IllegalStateException(name + ": a client failed", failure);
        }
        LatencyHistogram latency = new LatencyHistogram();
        for (LatencyHistogram client : calls) {
            latency.add(client);
        }
        long total = latency.count();
        Measurement.Builder m = Measurement.builder().put(Metrics.OPS, total);
        if (total == 0) {
            return m.build();
        }
        return m.put(Metrics.P50_US, latency.percentileMicros(50))
                .put(Metrics.P99_US, latency.percentileMicros(99))
                .put(Metrics.P999_US, latency.percentileMicros(99.9))
                .put(Metrics.MAX_US, latency.maxMicros())
                .put(SelectorMetrics.CALLS_PER_S, total * 1e9 / elapsed)
                .put(SelectorMetrics.PROCESS_CPU_PER_CALL_US, cpu / 1_000.0 / total)
                .put(SelectorMetrics.WAKEUPS_PER_CALL, wakeups / total)
                .put(SelectorMetrics.WAKEUPS_PER_SELECT, selectCycles > 0 ? wakeups / selectCycles : Double.NaN)
                .latency(latency)
                .build();
    }

    /** How much the counter {@code name} grew; {@code NaN} when the server has no such counter. */
    private static double increase(Map<String, Long> before, Map<String, Long> after, String name) {
        Long from = before.get(name);
        Long to = after.get(name);
        return from == null || to == null ? Double.NaN : to - from;
    }

    private static void parkUntil(long deadline) {
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
                if (clients != null) {
                    for (EchoClient client : clients) {
                        if (client != null) {
                            client.close();
                        }
                    }
                }
            } finally {
                if (server != null) {
                    server.close();
                }
            }
        }
    }
}
