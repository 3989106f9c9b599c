package org.rouse.benchmarks.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.rouse.benchmarks.measure.JitTime;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.measure.ProcessContextSwitches;
import org.rouse.benchmarks.measure.ProcessCpu;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.Metrics;

/**
 * One round of {@code n} periodic timers on a backend: lateness of every event (ran minus due), the re-entry interval
 * of every timer (time between two of its events, as LSL's {@code llGetAndResetTime()} sees it) and process CPU.
 * Timers start with phases spread over one period; the backend's timers are cancelled at the end of the round, so
 * nothing runs between rounds. Between starting them and the window the heap is collected once (see
 * {@link #MAX_SETTLE_NANOS}).
 *
 * <p>Each thread that runs events records into its own {@link ThreadRecord}, so that the measuring costs a backend with
 * many threads no more than one with a single thread: a shared recorder (HdrHistogram's {@code Recorder}, adders)
 * made every event of a multi-threaded backend pay for cache lines that other threads had just written.
 */
final class PeriodicRound implements TimerBackend.Events {

    static final Metric MEAN_REENTRY_S = new Metric("mean_reentry_s", "mean re-entry", "s", 6);
    static final Metric STDEV_REENTRY_MS = new Metric("stdev_reentry_ms", "re-entry stdev", "ms", 3);
    static final Metric P99_LATENESS_MS = new Metric("p99_lateness_ms", "p99 lateness", "ms", 3);
    static final Metric CPU_PERCENT = new Metric("cpu_percent", "process CPU", "% of a core", 1);
    static final Metric EVENTS = new Metric("events", "events/round", "", 0);
    static final Metric CPU_US_PER_EVENT = new Metric("cpu_us_per_event", "CPU per event", "µs", 2);
    /**
     * Voluntary context switches of the whole process (every live thread, mostly the backend's: parks and waits) per
     * event: how often a backend puts a thread to sleep and wakes it again.
     */
    static final Metric VOLUNTARY_PER_EVENT = new Metric("voluntary_per_event", "voluntary cs/event", "", 3);
    /**
     * Time the JIT compilers spent in the round (the JVM's total compilation time, so every compiler thread), in
     * milliseconds: process CPU includes it, and a backend whose code is still being compiled, or compiled again
     * after a deoptimization, pays for it in that round's CPU.
     */
    static final Metric JIT_MS = new Metric("jit_ms", "JIT compile time", "ms", 0);
    /**
     * Returns from park of the engine's threads per second (Rouse's wheel engine: the leader's timed parks, the
     * watchdog's, followers woken to run or watch); n/a for a backend that keeps no count. A wake-up costs more than a
     * typical handler, so this shows where a slack's CPU beyond one wake-up per slack goes.
     */
    static final Metric ENGINE_WAKEUPS_PER_S = new Metric("engine_wakeups_per_s", "engine wake-ups/s", "", 0);
    /** Of those, the watchdog's returns from its timed park per second (see WheelTimerEngine, "Helping"). */
    static final Metric WATCHDOG_WAKEUPS_PER_S = new Metric("watchdog_wakeups_per_s", "watchdog wake-ups/s", "", 0);

    /**
     * The columns of a lateness report, in order: p50, p99, p99.9 and max lateness, process CPU, CPU per event,
     * voluntary context switches per event and JIT compile time, then {@code more} (e.g. {@link #EVENTS}).
     */
    static List<Metric> latenessAndCpuColumns(Metric... more) {
        List<Metric> columns = new ArrayList<>(List.of(
                Metrics.P50_US,
                Metrics.P99_US,
                Metrics.P999_US,
                Metrics.MAX_US,
                CPU_PERCENT,
                CPU_US_PER_EVENT,
                VOLUNTARY_PER_EVENT,
                JIT_MS));
        columns.addAll(List.of(more));
        return List.copyOf(columns);
    }

    /**
     * The most time between starting a round's timers and the window before their first deadline (a quarter of the
     * round's budget when that is shorter), in which the setup's garbage is collected by {@code System.gc()}. Without
     * it the first young collections of the window copied the timers the round had just made (at 100,000 timers, tens
     * of megabytes, more for Rouse's one owner per timer than for the executor's tasks) and paused every thread for
     * 50-120 ms on a 2-core machine, so a backend's tail showed how much it allocates when timers are created rather
     * than how late it fires them.
     */
    private static final long MAX_SETTLE_NANOS = 1_000_000_000L;

    private final AtomicLongArray lastRan;
    /** The record of each thread that ran an event in this round. */
    private final ConcurrentLinkedQueue<ThreadRecord> records = new ConcurrentLinkedQueue<>();

    private final ThreadLocal<ThreadRecord> record = ThreadLocal.withInitial(() -> {
        ThreadRecord mine = new ThreadRecord();
        records.add(mine);
        return mine;
    });
    /** Cleared when the window ends: events while the backend is being stopped are not counted. */
    private volatile boolean recording = true;

    private PeriodicRound(int timers) {
        lastRan = new AtomicLongArray(timers);
    }

    /** Runs {@code timers} periodic timers of {@code period} on {@code backend} for {@code budget}. */
    static Measurement run(TimerBackend backend, int timers, Duration period, Duration budget) {
        PeriodicRound round = new PeriodicRound(timers);
        long periodNanos = period.toNanos();
        long settleNanos = Math.min(MAX_SETTLE_NANOS, budget.toNanos() / 4);
        long start = System.nanoTime() + settleNanos + periodNanos;
        long[] firstDue = new long[timers];
        for (int i = 0; i < timers; i++) {
            firstDue[i] = start + ThreadLocalRandom.current().nextLong(periodNanos);
        }
        backend.startPeriodic(firstDue, periodNanos, round);
        System.gc(); // the timers just made leave the young generation (see MAX_SETTLE_NANOS)
        long beforeWindow = start - periodNanos - System.nanoTime();
        if (beforeWindow > 0) {
            LockSupport.parkNanos(beforeWindow);
        }
        ProcessContextSwitches switchesBefore = ProcessContextSwitches.read();
        TimerBackend.WakeCounts wakesBefore = backend.wakeCounts();
        long jitBefore = JitTime.millis();
        long cpuBefore = ProcessCpu.nanos();
        long wallBefore = System.nanoTime();
        LockSupport.parkNanos(periodNanos + budget.toNanos()); // the round's length, not waiting for a result
        long cpu = ProcessCpu.nanos() - cpuBefore;
        long jit = JitTime.millis() - jitBefore;
        long wall = System.nanoTime() - wallBefore;
        long voluntary = ProcessContextSwitches.read().since(switchesBefore).voluntary();
        TimerBackend.WakeCounts wakesAfter = backend.wakeCounts();
        round.recording = false;
        backend.stopAll();
        double seconds = wall / 1e9;
        return round.measurement(cpu * 100.0 / wall, cpu, voluntary)
                .put(JIT_MS, jitBefore < 0 ? Double.NaN : jit)
                .put(ENGINE_WAKEUPS_PER_S, perSecond(wakesBefore.wakeups(), wakesAfter.wakeups(), seconds))
                .put(
                        WATCHDOG_WAKEUPS_PER_S,
                        perSecond(wakesBefore.watchdogWakeups(), wakesAfter.watchdogWakeups(), seconds))
                .build();
    }

    @Override
    public void fired(int timer, long dueNanos, long ranNanos) {
        if (!recording) {
            return;
        }
        long previous = lastRan.getAndSet(timer, ranNanos);
        record.get().add(Math.max(0, ranNanos - dueNanos), previous == 0 ? -1 : ranNanos - previous);
    }

    /** The rate of a count between two readings, NaN (n/a) if the backend keeps no such count. */
    static double perSecond(long before, long after, double seconds) {
        return before < 0 || after < 0 ? Double.NaN : (after - before) / seconds;
    }

    private Measurement.Builder measurement(double cpuPercent, long cpuNanos, long voluntarySwitches) {
        Histogram late = new Histogram(3);
        long n = 0;
        double intervalSum = 0;
        double intervalSquares = 0;
        for (ThreadRecord r : records) {
            synchronized (r) { // a thread still in fired() finishes its event first
                late.add(r.lateness);
                n += r.intervals;
                intervalSum += r.intervalSum;
                intervalSquares += r.intervalSquares;
            }
        }
        double mean = n == 0 ? Double.NaN : intervalSum / n;
        double variance = n < 2 ? Double.NaN : Math.max(0, intervalSquares / n - mean * mean);
        LatencyHistogram chart = new LatencyHistogram(); // the report's percentile chart of every event's lateness
        chart.addAll(late);
        return Measurement.builder()
                .latency(chart)
                .put(MEAN_REENTRY_S, mean / 1e9)
                .put(STDEV_REENTRY_MS, Math.sqrt(variance) / 1e6)
                .put(Metrics.P50_US, late.getValueAtPercentile(50) / 1e3)
                .put(Metrics.P99_US, late.getValueAtPercentile(99) / 1e3)
                .put(Metrics.P999_US, late.getValueAtPercentile(99.9) / 1e3)
                .put(Metrics.MAX_US, late.getMaxValue() / 1e3)
                .put(P99_LATENESS_MS, late.getValueAtPercentile(99) / 1e6)
                .put(CPU_PERCENT, cpuPercent)
                .put(EVENTS, late.getTotalCount())
                .put(CPU_US_PER_EVENT, late.getTotalCount() == 0 ? Double.NaN : cpuNanos / 1e3 / late.getTotalCount())
                .put(
                        VOLUNTARY_PER_EVENT,
                        late.getTotalCount() == 0 ? Double.NaN : (double) voluntarySwitches / late.getTotalCount());
    }

    /** What one thread recorded; written by that thread and read once the round ends, both under its monitor. */
    private static final class ThreadRecord {
        private final Histogram lateness = new Histogram(3);
        private long intervals;
        private double intervalSum;
        private double intervalSquares;

        /** One event: its lateness, and the time since the timer's previous event ({@code -1}: the first). */
        synchronized void add(long latenessNanos, long intervalNanos) {
            lateness.recordValue(latenessNanos);
            if (intervalNanos >= 0) {
                double interval = intervalNanos;
                intervals++;
                intervalSum += interval;
                intervalSquares += interval * interval;
            }
        }
    }
}
