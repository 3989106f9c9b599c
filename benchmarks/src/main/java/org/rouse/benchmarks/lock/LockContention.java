package org.rouse.benchmarks.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code lock-contention} (16 threads), {@code lock-contention-2} and {@code lock-contention-64}: the OpenSIPS
 * experiment. Every lock strategy (and {@code adaptive} with a longer spin cap, to show what the default cap of 5
 * buys), ReentrantLock non-fair and fair and {@code synchronized} guard a short critical section shared by all threads,
 * with and without work between acquisitions. {@code lock-fairness-16} and {@code -64} ({@link #fairnessCost}) compare
 * only {@code adaptive} with and without its fairness hand-offs, and ReentrantLock; {@code lock-facade-16} and
 * {@code -64} ({@link #facadeCost}) {@code adaptive} and {@code jdk} with and without the facade. Each variant runs in
 * a class loader of its own ({@link IsolatedVariants}).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness lock-contention --quick
 * }</pre>
 */
public final class LockContention implements Scenario {

    static final String BASELINE = "ReentrantLock, no work";

    /** The rows with work between acquisitions divide by this one. */
    static final String WORK_BASELINE = "ReentrantLock, work";

    /** The guards compared at the fairness timer's default bound and at its longest, with the baseline. */
    private static final int[] FAIRNESS_GUARDS = {Guard.ADAPTIVE, Guard.FAIRNESS_AT_MAX_BOUND, Guard.REENTRANT_LOCK};

    private final String name;
    private final int threads;
    private final int[] guards;
    /** What the description says the rows compare. */
    private final String compared;

    /** The scenario with {@code threads} threads (16 is OpenSIPS's case: 16 processes sharing one lock). */
    public LockContention(int threads) {
        this(
                threads == 16 ? "lock-contention" : "lock-contention-" + threads,
                threads,
                allGuards(),
                "every Rouse strategy (through the front, as a consumer bundle gets it; `adaptive` also with"
                        + " `adaptive.spin.max` = " + Guard.LONGER_SPIN_MAX
                        + " beside the default 5), ReentrantLock non-fair and fair, and `synchronized`");
    }

    private LockContention(String name, int threads, int[] guards, String compared) {
        this.name = name;
        this.threads = threads;
        this.guards = guards;
        this.compared = compared;
    }

    /**
     * {@code lock-fairness-<threads>}: what {@code adaptive}'s fairness hand-offs cost, as {@code adaptive} at the
     * default {@code adaptive.fairness.bound.us} beside {@code adaptive} at the longest bound (about no hand-off) and
     * ReentrantLock.
     */
    public static LockContention fairnessCost(int threads) {
        return new LockContention(
                "lock-fairness-" + threads,
                threads,
                FAIRNESS_GUARDS,
                "Rouse `adaptive` at the default `adaptive.fairness.bound.us` (a hand-off to the longest-queued"
                        + " thread on average every 0.5 ms) and at 10 s, and non-fair ReentrantLock");
    }

    /** The guards compared with and without the facade, with the baseline. */
    private static final int[] FACADE_GUARDS = {
        Guard.ADAPTIVE, Guard.ADAPTIVE_PRIMITIVE_ALONE, Guard.JDK, Guard.JDK_PRIMITIVE_ALONE, Guard.REENTRANT_LOCK
    };

    /**
     * {@code lock-facade-<threads>}: what the facade costs, as {@code adaptive} and {@code jdk} through the front
     * beside their primitives alone, and ReentrantLock.
     */
    public static LockContention facadeCost(int threads) {
        return new LockContention(
                "lock-facade-" + threads,
                threads,
                FACADE_GUARDS,
                "Rouse `adaptive` and `jdk` through the front (as a consumer bundle gets them) and each primitive alone"
                        + " (the facade's calls into it without its reentrancy, swap check and counters), and non-fair"
                        + " ReentrantLock");
    }

    private static int[] allGuards() {
        int[] all = new int[Guard.COUNT];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return threads + " threads on this machine's cores share one lock: " + compared + ". Critical section: a"
                + " counter and a small"
                + " HashMap update; between acquisitions either " + PrivateWork.CONTENTION_STEPS
                + " steps of private work, a non-linear mixing function (\"work\"), or"
                + " nothing (\"no work\"). Throughput in acquisitions per second (ratio against non-fair"
                + " ReentrantLock without work, or with work for the rows with work); CPU and voluntary/involuntary"
                + " context switches per acquisition from"
                + " `/proc/thread-self/status` over all worker threads; fairness as the min/max ratio of per-thread"
                + " acquisitions and Jain's index; acquire-wait percentiles (p50/p99/max, µs) from one acquisition in "
                + ContentionVariant.SAMPLE_EVERY + " per thread; violations (two holders at once) summed over the"
                + " rounds. Every other cell is the median of the measured rounds.";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (boolean work : new boolean[] {false, true}) {
            for (int guard : guards) {
                variants.add(IsolatedVariants.contention(guard, threads, work));
            }
        }
        return variants;
    }

    @Override
    public RoundPlan plan(Options options) {
        // up to 16 variants: quick ~7 s, full 1 + 6 x 500 ms each (~56 s)
        return options.quick()
                ? new RoundPlan(1, 3, Duration.ofMillis(100))
                : new RoundPlan(1, 6, Duration.ofMillis(500));
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
                                LockMetrics.JAIN,
                                Metrics.P50_US,
                                Metrics.P99_US,
                                Metrics.MAX_US,
                                LockMetrics.VIOLATIONS),
                        BASELINE,
                        List.of(LockMetrics.THROUGHPUT),
                        false)
                .withRowBaseline(", work", WORK_BASELINE);
    }
}
