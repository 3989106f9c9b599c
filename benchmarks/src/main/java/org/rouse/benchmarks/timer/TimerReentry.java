package org.rouse.benchmarks.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code timer-reentry}: OpenSim's LSL experiment. N scripts (711 as on the grid that reported it, and 10,000) each
 * set a 50 ms timer; every {@code timer()} event measures the time since the previous one, as
 * {@code llGetAndResetTime()} does. Historical reference: OpenSim with its 100 ms sleep-poll loop and 0.5 s clamp saw
 * 0.502 s, Second Life 0.044-0.045 s, a 50 ms timer patch 0.0499-0.0501 s at ~3x CPU.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-reentry
 * }</pre>
 */
public final class TimerReentry implements Scenario {

    static final Duration INTERVAL = Duration.ofMillis(50);
    static final String BASELINE = "ScheduledThreadPoolExecutor, 711";

    @Override
    public String name() {
        return "timer-reentry";
    }

    @Override
    public String description() {
        return "N LSL-style scripts each re-entering timer() every 50 ms (phases spread over the period): the mean and"
                + " standard deviation of the time between two timer() events of one script, p99 lateness of an event"
                + " after its due time, and process CPU (percent of one core) while they run. Rouse (wheel engine,"
                + " 4 workers, one owner per script), a loop that sleeps 100 ms between scans of every timer (OpenSim"
                + " today), the same sleeping 10 ms, ScheduledThreadPoolExecutor (4 threads) and Netty's"
                + " HashedWheelTimer at 1 ms and at its default 100 ms tick. OpenSim saw 0.502 s (100 ms poll and"
                + " a 0.5 s clamp), Second Life 0.044-0.045 s.";
    }

    @Override
    public List<Variant> variants(Options options) {
        List<Variant> variants = new ArrayList<>();
        for (int scripts : new int[] {711, 10_000}) {
            variants.add(new Periodic("Rouse", scripts, () -> new TimerBackend.Rouse(4)));
            variants.add(new Periodic(
                    "sleep-poll 100 ms", scripts, () -> new TimerBackend.SleepPoll(Duration.ofMillis(100))));
            variants.add(
                    new Periodic("sleep-poll 10 ms", scripts, () -> new TimerBackend.SleepPoll(Duration.ofMillis(10))));
            variants.add(new Periodic("ScheduledThreadPoolExecutor", scripts, () -> new TimerBackend.Stpe(4)));
            variants.add(
                    new Periodic("HashedWheelTimer 1 ms", scripts, () -> new TimerBackend.Netty(Duration.ofMillis(1))));
            variants.add(new Periodic(
                    "HashedWheelTimer 100 ms", scripts, () -> new TimerBackend.Netty(Duration.ofMillis(100))));
        }
        return variants;
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(
                List.of(
                        PeriodicRound.MEAN_REENTRY_S,
                        PeriodicRound.STDEV_REENTRY_MS,
                        PeriodicRound.P99_LATENESS_MS,
                        PeriodicRound.CPU_PERCENT,
                        PeriodicRound.EVENTS),
                BASELINE,
                List.of(PeriodicRound.CPU_PERCENT),
                false);
    }

    @Override
    public RoundPlan plan(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(400))
                : new RoundPlan(1, 3, Duration.ofSeconds(4));
    }

    /** N periodic timers on one backend; the backend lives from open to close. */
    static final class Periodic implements Variant {
        private final int timers;
        private final Supplier<TimerBackend> factory;
        private final Duration interval;
        private final String name;
        private TimerBackend backend;

        Periodic(String backend, int timers, Supplier<TimerBackend> factory) {
            this(backend, timers, INTERVAL, factory);
        }

        /** {@code timers} timers every {@code interval}; the name shows the interval when it is not 50 ms. */
        Periodic(String backend, int timers, Duration interval, Supplier<TimerBackend> factory) {
            this.timers = timers;
            this.factory = factory;
            this.interval = interval;
            this.name =
                    backend + ", " + timers + (interval.equals(INTERVAL) ? "" : " @ " + interval.toMillis() + " ms");
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return timers + " timers every " + interval.toMillis() + " ms on " + name;
        }

        @Override
        public void open() {
            backend = factory.get();
        }

        @Override
        public Measurement runRound(Duration budget) {
            return PeriodicRound.run(backend, timers, interval, budget);
        }

        @Override
        public void close() throws Exception {
            if (backend != null) {
                backend.close();
            }
        }
    }
}
