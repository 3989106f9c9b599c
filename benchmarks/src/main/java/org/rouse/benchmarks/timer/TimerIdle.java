package org.rouse.benchmarks.timer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.rouse.benchmarks.measure.ProcessCpu;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@code timer-idle}: 100,000 timers due in an hour and nothing else; how often the thread that waits for deadlines
 * wakes up, and what the process burns, over 10 s.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-idle
 * }</pre>
 */
public final class TimerIdle implements Scenario {

    static final Metric WAKEUPS_PER_S = new Metric("wakeups_per_s", "timer thread wakeups", "/s", 2);
    static final Metric OWN_COUNT_PER_S = new Metric("own_count_per_s", "dispatcher's own count", "/s", 2);
    static final Metric CPU_PERCENT = new Metric("cpu_percent", "process CPU", "% of a core", 3);
    static final String BASELINE = "ScheduledThreadPoolExecutor";

    @Override
    public String name() {
        return "timer-idle";
    }

    @Override
    public String description() {
        return "100,000 one-shot timers due in an hour, armed before the round: wake-ups per second of the thread"
                + " that waits for deadlines (its voluntary context switches, from /proc/self/task/N/status; Rouse also"
                + " reports its dispatcher's own count) and process CPU over the round (10 s in full mode).";
    }

    @Override
    public List<Variant> variants(Options options) {
        return List.of(
                new Idle("Rouse", () -> new TimerBackend.Rouse(4)),
                new Idle(BASELINE, () -> new TimerBackend.Stpe(4)),
                new Idle("HashedWheelTimer 1 ms", () -> new TimerBackend.Netty(Duration.ofMillis(1))),
                new Idle("HashedWheelTimer 100 ms", () -> new TimerBackend.Netty(Duration.ofMillis(100))));
    }

    @Override
    public ReportLayout layout() {
        return new ReportLayout(List.of(WAKEUPS_PER_S, OWN_COUNT_PER_S, CPU_PERCENT), BASELINE, List.of(), false);
    }

    @Override
    public RoundPlan plan(Options options) {
        return options.quick()
                ? new RoundPlan(0, 1, Duration.ofMillis(1000))
                : new RoundPlan(0, 1, Duration.ofSeconds(10));
    }

    /** 100,000 far timers on one backend. */
    static final class Idle implements Variant {
        private final String name;
        private final Supplier<TimerBackend> factory;
        private TimerBackend backend;

        Idle(String name, Supplier<TimerBackend> factory) {
            this.name = name;
            this.factory = factory;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "100,000 timers due in an hour on " + name;
        }

        @Override
        public void open() {
            backend = factory.get();
            backend.armFar(100_000, Duration.ofHours(1));
        }

        @Override
        public Measurement runRound(Duration budget) throws IOException {
            long switchesBefore = switches(backend.timerThreadName());
            long ownBefore = backend.wakeCounts().wakeups();
            long cpuBefore = ProcessCpu.nanos();
            long start = System.nanoTime();
            LockSupport.parkNanos(budget.toNanos()); // the observation window
            long wall = System.nanoTime() - start;
            double seconds = wall / 1e9;
            return Measurement.builder()
                    .put(WAKEUPS_PER_S, (switches(backend.timerThreadName()) - switchesBefore) / seconds)
                    .put(CPU_PERCENT, (ProcessCpu.nanos() - cpuBefore) * 100.0 / wall)
                    .put(
                            OWN_COUNT_PER_S,
                            PeriodicRound.perSecond(
                                    ownBefore, backend.wakeCounts().wakeups(), seconds))
                    .build();
        }

        @Override
        public void close() throws Exception {
            if (backend != null) {
                backend.close();
            }
        }

        /** Voluntary context switches of the threads whose names start with {@code name}, summed, or -1 if unknown. */
        static long switches(String name) throws IOException {
            Path tasks = Path.of("/proc/self/task");
            if (!Files.isDirectory(tasks)) {
                return -1;
            }
            long total = -1; // summed over every matching thread: Rouse's workers take turns waiting
            try (Stream<Path> all = Files.list(tasks)) {
                for (Path task : (Iterable<Path>) all::iterator) {
                    String comm;
                    try {
                        comm = Files.readString(task.resolve("comm")).trim();
                    } catch (IOException gone) {
                        continue;
                    }
                    if (name.startsWith(comm) || comm.startsWith(name)) {
                        for (String line : Files.readAllLines(task.resolve("status"))) {
                            if (line.startsWith("voluntary_ctxt_switches:")) {
                                total = Math.max(total, 0)
                                        + Long.parseLong(line.substring(line.indexOf(':') + 1)
                                                .trim());
                            }
                        }
                    }
                }
            }
            return total;
        }
    }
}
