package org.rouse.benchmarks.jmh;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.rouse.api.internal.events.RouseEvents;
import org.rouse.api.internal.timer.FireLatenessProbe;
import org.rouse.lock.spi.LockPrimitive;

/**
 * What the JFR hooks add to the timer fire path ({@code RouseEvents.timerLate}, called as a handler starts) and to
 * the lock wait path ({@code RouseEvents.lockContended}, called as a waiting thread gets the lock), against the same
 * work with no hook ({@code *NoEvent}); and what a timer firing records for lateness in all ({@code
 * timerFireStatistics}: its bundle's histogram and the hook), against the same plus a second, shared window recorder
 * ({@code timerFireStatisticsAndSharedWindow}).
 *
 * <p>{@code jfr=off}: no recording, the events disabled (what every deployment pays). {@code jfr=on}: a recording runs
 * with both events enabled and a threshold nothing reaches (one hour), so each call tests the event and its
 * threshold and commits nothing: what an always-on recording costs the on-time timers and short waits.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar JfrEventCost
 * java -jar benchmarks/target/benchmarks.jar JfrEventCost -f 1 -wi 3 -i 5   # shorter
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(3)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class JfrEventCost {

    @Param({"off", "on"})
    public String jfr;

    private Recording recording;

    /** Stands for a primitive the waiting thread got; only its strategy name is read, and only when committing. */
    private final LockPrimitive primitive = new LockPrimitive() {
        @Override
        public String strategy() {
            return "bench";
        }

        @Override
        public void lock() {}

        @Override
        public void lockInterruptibly() {}

        @Override
        public boolean tryLock() {
            return true;
        }

        @Override
        public boolean tryLockNanos(long nanos) {
            return true;
        }

        @Override
        public void unlock() {}

        @Override
        public boolean isLocked() {
            return false;
        }
    };

    private final Object timer = new Object();
    /** A lateness under any sensible threshold (50 µs), varied so the JIT cannot fold it. */
    private long lateness = 50_000;

    @Setup(Level.Trial)
    public void start() {
        if (!RouseEvents.available()) {
            throw new IllegalStateException("JFR is not available in this JVM");
        }
        if (jfr.equals("on")) {
            recording = new Recording();
            recording.enable("org.rouse.TimerLate").with("latenessThreshold", "1 h");
            recording.enable("org.rouse.LockContended").with("waitThreshold", "1 h");
            recording.setMaxAge(Duration.ofSeconds(10));
            recording.start();
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (recording != null) {
            recording.close();
        }
    }

    @Benchmark
    public long timerFireNoEvent() {
        return ++lateness; // the fire path's own work here: the lateness it records
    }

    @Benchmark
    public long timerFireWithEvent() {
        long l = ++lateness;
        RouseEvents.timerLate("owner", timer, l);
        return l;
    }

    /** A bundle's lateness histogram, recorded into as a handler start does. */
    private final FireLatenessProbe statistics = new FireLatenessProbe();

    /**
     * A second, shared {@code Recorder} with a time slice looked up per sample: the write a firing made for a
     * health-check window kept apart from the statistics (a division, a volatile read, a {@code recordValue}).
     */
    private final Recorder sharedWindow = new Recorder(2);

    private volatile long sliceNanos = 10_000_000_000L;

    /** What a firing records for lateness: its bundle's histogram and the JFR hook (the check adds nothing). */
    @Benchmark
    public long timerFireStatistics() {
        long l = ++lateness;
        statistics.record(l);
        RouseEvents.timerLate("owner", timer, l);
        return l;
    }

    /** As {@link #timerFireStatistics} plus a shared window recorder, for comparison. */
    @Benchmark
    public long timerFireStatisticsAndSharedWindow() {
        long l = ++lateness;
        statistics.record(l);
        if (Math.floorDiv(l, sliceNanos) >= 0) {
            sharedWindow.recordValue(l);
        }
        RouseEvents.timerLate("owner", timer, l);
        return l;
    }

    @Benchmark
    public long lockWaitNoEvent() {
        return System.nanoTime(); // the wait path's own work here: the start time it took before waiting
    }

    @Benchmark
    public long lockWaitWithEvent() {
        long start = System.nanoTime();
        RouseEvents.lockContended("bench-lock", primitive, start);
        return start;
    }
}
