package org.rouse.benchmarks.wakeup;

import java.time.Duration;
import java.util.List;
import org.rouse.benchmarks.measure.IdleWait;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code wakeup-floor}: what the JVM and the kernel charge for waking a thread on this machine, measured without any
 * Rouse code. The timer goal (sub-millisecond lateness) is judged against the timed-wait overshoot, the selector goal
 * against the {@code Selector.wakeup()} latency, and the worker pools against the idle-thread hand-off.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness wakeup-floor
 * }</pre>
 */
public final class WakeupFloor implements Scenario {

    /** The baseline row: the shortest timed wait a timer engine would use. */
    static final String BASELINE = "parkNanos(50 µs)";

    /** Think time between paced operations (the driver waits this long, then checks the target is idle). */
    private static final Duration PACE = Duration.ofNanos(50_000);

    private static final Duration STUCK = Duration.ofSeconds(10);

    @Override
    public String name() {
        return "wakeup-floor";
    }

    @Override
    public String description() {
        return "The floors the timer and selector goals are measured against, with no Rouse code involved: how late"
                + " a timed wait returns (latency = overshoot beyond the requested time), how long a thread blocked"
                + " in `Selector.select()` takes to run after `Selector.wakeup()`, and how long work takes to start on"
                + " an idle pool thread compared with a new thread. CPU/op and context switches/op count the"
                + " benchmark's own threads (the waiting or woken thread for its whole round, the waking thread only"
                + " inside the waking call); the driver's pacing between operations is left out.";
    }

    @Override
    public List<Variant> variants(Options options) {
        IdleWait idle = new IdleWait(PACE, STUCK);
        return List.of(
                TimedWaitOvershoot.parkNanos(BASELINE, Duration.ofNanos(50_000)),
                TimedWaitOvershoot.parkNanos("parkNanos(1 ms)", Duration.ofMillis(1)),
                TimedWaitOvershoot.sleep("Thread.sleep(1)", 1),
                new SelectorWakeup(idle),
                new PoolHandoff(idle),
                new NewThreadStart());
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                List.of(
                        Metrics.P50_US,
                        Metrics.P99_US,
                        Metrics.P999_US,
                        Metrics.MAX_US,
                        Metrics.CPU_PER_OP_US,
                        Metrics.SWITCHES_PER_OP,
                        Metrics.VOLUNTARY_PER_OP,
                        Metrics.INVOLUNTARY_PER_OP,
                        Metrics.OPS),
                BASELINE,
                List.of(Metrics.P50_US, Metrics.P99_US),
                true);
    }
}
