package org.rouse.benchmarks.lock;

import java.time.Duration;
import java.util.List;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;
import org.rouse.lock.SwappableReadWriteLock;
import org.rouse.lock.internal.StrategyLockEngine;

/**
 * {@code rw-swap}: {@value ReadMostly#THREADS} threads share one Rouse read-write lock over a small hash map, 25 %
 * writes, while the driver reconfigures the lock's strategy every 10 ms ({@code adaptive} and {@code jdk} in turn),
 * for 30 s of swaps in a full run. Violations count a writer inside together with anyone and must be 0; throughput
 * against the same lock without swaps shows what the swaps cost. The read-write counterpart of {@code lock-swap}.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness rw-swap --quick
 * }</pre>
 */
public final class ReadWriteSwap implements Scenario {

    static final String BASELINE = LockSwap.BASELINE;
    /** Writers meet readers and each other often at 25 %, so a swap often finds the lock held in either mode. */
    private static final int WRITE_PERCENT = 25;

    @Override
    public String name() {
        return "rw-swap";
    }

    @Override
    public String description() {
        return ReadMostly.THREADS + " threads share one Rouse read-write lock over a 64-key HashMap ("
                + (100 - WRITE_PERCENT) + " % lookups under the read lock, " + WRITE_PERCENT + " % updates under the"
                + " write lock) while the driver reconfigures the lock's strategy every 10 ms; a violation is a writer"
                + " inside together with anyone. " + LockSwap.COLUMNS;
    }

    @Override
    public List<Variant> variants(Options options) {
        return List.of(swapped(BASELINE, "adaptive"), swapped("adaptive ↔ jdk", "adaptive", "jdk"));
    }

    /** A read-write lock made through the real front, whose strategy {@code cycle} changes every 10 ms. */
    static Variant swapped(String name, String... cycle) {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(new StrategyLockEngine(true)); // adaptive.read.write on: both strategies in read-write form
        StrategyCycle strategies = new StrategyCycle(core, cycle);
        SwappableReadWriteLock lock = core.newView("benchmarks").readWriteLock("swapped");
        return new ReadMostlyVariant(
                name,
                lock,
                WRITE_PERCENT,
                strategies::swapUntil,
                () -> lock.statistics().swaps());
    }

    @Override
    public RoundPlan plan(Options options) {
        // 2 variants: quick ~1 s, full 1 + 6 x 5 s each (30 s of swaps per variant, ~70 s)
        return options.quick()
                ? new RoundPlan(1, 2, Duration.ofMillis(200))
                : new RoundPlan(1, 6, Duration.ofSeconds(5));
    }

    @Override
    public ReportLayout layout() {
        return LockSwap.swapLayout();
    }
}
