package org.rouse.benchmarks.lock;

import java.util.List;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code lock-swap}: the throughput dip while a lock's strategy is swapped every 10 ms under 16 threads, and the
 * violations, which must be 0.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness lock-swap --quick
 * }</pre>
 */
public final class LockSwap implements Scenario {

    static final String BASELINE = "adaptive, no swaps";

    @Override
    public String name() {
        return "lock-swap";
    }

    @Override
    public String description() {
        return SwapVariant.THREADS + " threads take one Rouse lock in a loop (empty critical section with a"
                + " mutual-exclusion check) while the driver reconfigures the lock's strategy every 10 ms. Throughput"
                + " against the same lock without swaps shows the dip; violations count two threads inside the"
                + " critical section at once and must be 0; swaps/round counts the swaps the lock performed.";
    }

    @Override
    public List<Variant> variants(Options options) {
        return List.of(
                new SwapVariant(BASELINE, "adaptive"),
                new SwapVariant("adaptive ↔ jdk", "adaptive", "jdk"),
                new SwapVariant("all four strategies", "adaptive", "jdk", "fair", "spin-yield"));
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                List.of(LockMetrics.THROUGHPUT, LockMetrics.SWAPS, LockMetrics.VIOLATIONS),
                BASELINE,
                List.of(LockMetrics.THROUGHPUT),
                false);
    }
}
