package org.rouse.benchmarks.lock;

import org.rouse.benchmarks.scenario.Metric;

/** The columns of the lock scenarios beyond the shared {@link org.rouse.benchmarks.scenario.Metrics}. */
final class LockMetrics {

    static final Metric THROUGHPUT = new Metric("ops_per_s", "throughput", "ops/s", 0);
    static final Metric VOLUNTARY_PER_OP = new Metric("voluntary_per_op", "voluntary cs/op", "", 5);
    static final Metric INVOLUNTARY_PER_OP = new Metric("involuntary_per_op", "involuntary cs/op", "", 5);
    static final Metric MIN_MAX = new Metric("min_max", "per-thread min/max", "", 3);
    static final Metric JAIN = new Metric("jain", "Jain index", "", 3);
    /** Summed over the rounds: one violation in any round shows. */
    static final Metric VIOLATIONS = Metric.summedCount("violations", "violations, all rounds");

    static final Metric SWAPS = new Metric("swaps", "swaps/round", "", 0);

    private LockMetrics() {}
}
