package org.rouse.benchmarks.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code rw-read-mostly}: 16 threads share one read-write lock guarding a small hash map, 95 % reads (a lookup under
 * the read lock) and 5 % writes (an update under the write lock): Rouse's {@code adaptive} and {@code jdk}
 * read-write strategies through the real front, each beside its primitive alone (what the facade costs), and a raw
 * {@link ReentrantReadWriteLock} and {@link StampedLock#asReadWriteLock()}. {@code rw-write-heavy} is the same with 25 % writes, where writers meet
 * each other and readers far more often.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness rw-read-mostly --quick
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness rw-write-heavy --quick
 * }</pre>
 */
public final class ReadMostly implements Scenario {

    static final String BASELINE = "ReentrantReadWriteLock";
    static final int THREADS = 16;

    private final String name;
    /** The share of writes: 5 or 25 %. */
    private final int writePercent;

    /** {@code rw-read-mostly}: 5 % writes. */
    public ReadMostly() {
        this("rw-read-mostly", 5);
    }

    private ReadMostly(String name, int writePercent) {
        this.name = name;
        this.writePercent = writePercent;
    }

    /** {@code rw-write-heavy}: 25 % writes. */
    public static ReadMostly writeHeavy() {
        return new ReadMostly("rw-write-heavy", 25);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return THREADS + " threads on this machine's cores share one read-write lock over a 64-key HashMap: "
                + (100 - writePercent) + " % of operations look a key up under the read lock, " + writePercent
                + " % update one under the write lock, with " + PrivateWork.READ_MOSTLY_STEPS
                + " steps of private work (a non-linear mixing function) between operations. Throughput in"
                + " operations per second (ratio against a raw non-fair ReentrantReadWriteLock); CPU and"
                + " voluntary/involuntary context switches per operation over all worker threads; fairness as the"
                + " min/max ratio of per-thread operations;"
                + " violations count a writer inside together with anyone, summed over the rounds. Every other cell is"
                + " the median of the measured rounds.";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (int i = 0; i < IsolatedVariants.READ_WRITE_COUNT; i++) {
            variants.add(IsolatedVariants.readWrite(i, writePercent));
        }
        return variants;
    }

    @Override
    public RoundPlan plan(Options options) {
        // 6 variants: quick ~3 s, full 1 + 8 x 500 ms each (~30 s)
        return options.quick()
                ? new RoundPlan(1, 3, Duration.ofMillis(100))
                : new RoundPlan(1, 8, Duration.ofMillis(500));
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                List.of(
                        LockMetrics.THROUGHPUT,
                        Metrics.CPU_PER_OP_US,
                        LockMetrics.VOLUNTARY_PER_OP,
                        LockMetrics.INVOLUNTARY_PER_OP,
                        LockMetrics.MIN_MAX,
                        LockMetrics.VIOLATIONS),
                BASELINE,
                List.of(LockMetrics.THROUGHPUT),
                false);
    }
}
