package org.rouse.benchmarks.selector;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
    /** Pool threads counted as created whose start has not returned yet. */
    static final String STARTING = "pool.threads.starting";

    LoadSnapshot {
        engineCounters = Map.copyOf(engineCounters);
    }

    /**
     * Reads the process and {@code server} now, so that the pool threads a difference of two snapshots counts as
     * created are among the threads it counts as started: once no pool thread the engine counted is still being
     * started (its creator starts it after unlocking; waited for up to 1 s), the JVM's count of started threads is
     * read between two reads of the engine's counters that agree on the threads created (else it reads again).
     */
    static LoadSnapshot take(EchoServer server) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (; ; ) {
            Map<String, Long> before = server.engineCounters();
            if (before.getOrDefault(STARTING, 0L) > 0 && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100)); // a start in flight takes microseconds
                continue;
            }
            long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
            Map<String, Long> after = server.engineCounters();
            if (Objects.equals(before.get(POOL_THREADS_CREATED), after.get(POOL_THREADS_CREATED))
                    || System.nanoTime() - deadline >= 0) {
                return new LoadSnapshot(ProcessCpu.nanos(), started, after);
            }
        }
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
