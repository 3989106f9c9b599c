package org.rouse.benchmarks.selector;

import java.util.ArrayList;
import java.util.List;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.Metrics;

/** The columns of the selector scenarios beyond the shared {@link org.rouse.benchmarks.scenario.Metrics}. */
final class SelectorMetrics {

    static final Metric CALLS_PER_S = new Metric("calls_per_s", "throughput", "calls/s", 0);
    static final Metric PROCESS_CPU_PER_CALL_US = new Metric("process_cpu_per_call_us", "process CPU/call", "µs", 1);
    static final Metric WAKEUPS_PER_CALL = new Metric("wakeups_per_call", "wakeups written/call", "", 3);
    static final Metric WAKEUPS_PER_SELECT =
            new Metric("wakeups_per_select_cycle", "wakeups written/select cycle", "", 3);
    /** Java threads the whole JVM started during the round ({@code ThreadMXBean.getTotalStartedThreadCount()}). */
    static final Metric THREADS_STARTED = new Metric("threads_started", "threads started/round", "", 1);
    /** Rouse engine counter {@code pool.threads.created} during the round. */
    static final Metric POOL_THREADS_CREATED = new Metric("pool_threads_created", "pool threads created/round", "", 1);
    /** Rouse engine counter {@code pool.threads.retired} during the round. */
    static final Metric POOL_THREADS_RETIRED = new Metric("pool_threads_retired", "pool threads retired/round", "", 1);

    // selector-bursts: "later" = bursts 2..n, each counted from the end of the burst before (so the idle gap is in)
    static final Metric THREADS_STARTED_FIRST_BURST =
            new Metric("threads_started_burst1", "threads started, burst 1", "", 0);
    static final Metric THREADS_STARTED_LATER_BURST =
            new Metric("threads_started_per_later_burst", "threads started/later burst", "", 2);
    static final Metric POOL_THREADS_CREATED_FIRST_BURST =
            new Metric("pool_threads_created_burst1", "pool threads created, burst 1", "", 0);
    static final Metric POOL_THREADS_CREATED_LATER_BURST =
            new Metric("pool_threads_created_per_later_burst", "pool threads created/later burst", "", 2);
    static final Metric POOL_THREADS_RETIRED_LATER_BURST =
            new Metric("pool_threads_retired_per_later_burst", "pool threads retired/later burst", "", 2);
    static final Metric P99_FIRST_100MS_FIRST_BURST_US =
            new Metric("p99_first_100ms_burst1_us", "p99 first 100 ms, burst 1", "µs", 1);
    static final Metric P99_FIRST_100MS_LATER_BURSTS_US =
            new Metric("p99_first_100ms_later_us", "p99 first 100 ms, later bursts", "µs", 1);

    private SelectorMetrics() {}

    /**
     * The columns of the per-call scenarios: p50, p99, p99.9, throughput, process CPU and wakeups per call, then
     * {@code more}.
     */
    static List<Metric> callColumns(Metric... more) {
        List<Metric> columns = new ArrayList<>(List.of(
                Metrics.P50_US,
                Metrics.P99_US,
                Metrics.P999_US,
                CALLS_PER_S,
                PROCESS_CPU_PER_CALL_US,
                WAKEUPS_PER_CALL));
        columns.addAll(List.of(more));
        return columns;
    }
}
