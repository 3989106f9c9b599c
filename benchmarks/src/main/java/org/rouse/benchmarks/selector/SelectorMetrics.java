package org.rouse.benchmarks.selector;

import org.rouse.benchmarks.scenario.Metric;

/** The columns of the selector scenarios beyond the shared {@link org.rouse.benchmarks.scenario.Metrics}. */
final class SelectorMetrics {

    static final Metric CALLS_PER_S = new Metric("calls_per_s", "throughput", "calls/s", 0);
    static final Metric PROCESS_CPU_PER_CALL_US = new Metric("process_cpu_per_call_us", "process CPU/call", "µs", 1);
    static final Metric WAKEUPS_PER_CALL = new Metric("wakeups_per_call", "wakeups written/call", "", 3);
    static final Metric WAKEUPS_PER_SELECT =
            new Metric("wakeups_per_select_cycle", "wakeups written/select cycle", "", 3);

    private SelectorMetrics() {}
}
