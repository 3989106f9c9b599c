package org.rouse.benchmarks.selector;

import java.lang.management.ManagementFactory;
import java.util.Map;
import org.rouse.benchmarks.measure.ProcessCpu;

/**
 * What the process and a server's engine had done at one moment: process CPU, threads started by the whole JVM
 * (every variant's server threads included; the clients are started before any round) and the Rouse engine's
 * counters. The difference of two snapshots is what happened between them.
 *
 * <pre>{@code
 * LoadSnapshot before = LoadSnapshot.take(server);
 * ...
 * LoadSnapshot after = LoadSnapshot.take(server);
 * double created = after.increase(before, LoadSnapshot.POOL_THREADS_CREATED);
 * }</pre>
 *
 * @param cpuNanos process CPU time so far
 * @param threadsStarted {@code ThreadMXBean.getTotalStartedThreadCount()}: Java threads started since the JVM began
 * @param engineCounters the server's {@link EchoServer#engineCounters()} (empty when it has no Rouse engine)
 */
record LoadSnapshot(long cpuNanos, long threadsStarted, Map<String, Long> engineCounters) {

    static final String WAKEUPS_WRITTEN = "wakeups.written";
    static final String SELECT_CYCLES = "select.cycles";
    static final String POOL_THREADS_CREATED = "pool.threads.created";
    static final String POOL_THREADS_RETIRED = "pool.threads.retired";

    LoadSnapshot {
        engineCounters = Map.copyOf(engineCounters);
    }

    /** Reads the process and {@code server} now. */
    static LoadSnapshot take(EchoServer server) {
        return new LoadSnapshot(
                ProcessCpu.nanos(),
                ManagementFactory.getThreadMXBean().getTotalStartedThreadCount(),
                server.engineCounters());
    }

    /** How much the engine counter {@code name} grew since {@code earlier}; {@code NaN} when there is none. */
    double increase(LoadSnapshot earlier, String name) {
        Long from = earlier.engineCounters.get(name);
        Long to = engineCounters.get(name);
        return from == null || to == null ? Double.NaN : to - from;
    }

    /** Threads the JVM started since {@code earlier}. */
    long threadsStartedSince(LoadSnapshot earlier) {
        return threadsStarted - earlier.threadsStarted;
    }

    /** Process CPU used since {@code earlier}, in ns. */
    long cpuSince(LoadSnapshot earlier) {
        return cpuNanos - earlier.cpuNanos;
    }
}
