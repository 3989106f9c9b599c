package org.rouse.benchmarks.scenario;

/** The metrics {@link RoundRecorder} fills in for every round; scenarios pick their columns from these and their own. */
public final class Metrics {

    /** Operations measured in the round. */
    public static final Metric OPS = new Metric("ops", "ops/round", "", 0);
    /** Median latency. */
    public static final Metric P50_US = new Metric("p50_us", "p50", "µs", 1);
    /** 99th percentile latency. */
    public static final Metric P99_US = new Metric("p99_us", "p99", "µs", 1);
    /** 99.9th percentile latency. */
    public static final Metric P999_US = new Metric("p999_us", "p99.9", "µs", 1);
    /** Largest latency. */
    public static final Metric MAX_US = new Metric("max_us", "max", "µs", 1);
    /** CPU time of the benchmark's own threads per operation. */
    public static final Metric CPU_PER_OP_US = new Metric("cpu_per_op_us", "CPU/op", "µs", 2);
    /** CPU time of the whole process (harness, JIT and GC included) per operation. */
    public static final Metric PROCESS_CPU_PER_OP_US = new Metric("process_cpu_per_op_us", "process CPU/op", "µs", 2);
    /** Context switches (voluntary + involuntary) of the benchmark's threads per operation. */
    public static final Metric SWITCHES_PER_OP = new Metric("ctx_switches_per_op", "ctx switches/op", "", 2);
    /** Voluntary context switches (the thread blocked) per operation. */
    public static final Metric VOLUNTARY_PER_OP = new Metric("voluntary_per_op", "voluntary/op", "", 2);
    /** Involuntary context switches (the thread was preempted) per operation. */
    public static final Metric INVOLUNTARY_PER_OP = new Metric("involuntary_per_op", "involuntary/op", "", 2);
    /**
     * The machine's CPU time the hypervisor gave to other guests during the round, in percent; the runners add it to
     * every round, so a reader can tell a variant whose rounds met a burst of steal from one whose code was slow.
     */
    public static final Metric STEAL_PERCENT = new Metric("steal_percent", "CPU steal", "%", 1);

    private Metrics() {}
}
