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

    /** What the swap scenarios' columns mean (lock-swap and rw-swap). */
    static final String COLUMNS = "Throughput against the same lock without swaps shows the dip; swaps/round counts"
            + " the swaps the lock performed; violations must be 0.";

    @Override
    public String name() {
        return "lock-swap";
    }

    @Override
    public String description() {
        return SwapVariant.THREADS + " threads take one Rouse lock in a loop (empty critical section with a"
                + " mutual-exclusion check) while the driver reconfigures the lock's strategy every 10 ms; a violation"
                + " is two threads inside the critical section at once. " + COLUMNS;
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
        return swapLayout();
    }

    /** The swap scenarios' report: throughput against the row without swaps, swaps and violations. */
    static ReportLayout swapLayout() {
        return new ReportLayout(
                List.of(LockMetrics.THROUGHPUT, LockMetrics.SWAPS, LockMetrics.VIOLATIONS),
                BASELINE,
                List.of(LockMetrics.THROUGHPUT),
                false);
    }
}
