package org.rouse.benchmarks.jmh;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.TimerHandler;
import org.rouse.timer.internal.WheelTimerEngine;

/**
 * The steady-state firing of periodic timers: {@code timers} fixed-rate timers at 1 ms (one owner each) through the real front
 * and wheel engine, against {@code ScheduledThreadPoolExecutor} with the same tasks. One operation is one firing; the
 * benchmark thread only waits for {@value #FIRINGS} more of them. Run with the GC profiler, whose
 * {@code gc.alloc.rate.norm} counts every thread's allocation (JMH 1.37 reads the JVM-wide total), so it gives the
 * bytes allocated per firing by the timer machinery:
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar TimerPeriodicFire -prof gc -f 3 -wi 3 -i 5 -w 1s -r 1s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class TimerPeriodicFire {

    static final int FIRINGS = 1_000;
    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    @Param({"rouse", "stpe"})
    public String impl;

    /**
     * Periodic timers; fewer timers mean fewer firings per second, so a cost per second (not per firing) shows as
     * more bytes per firing.
     */
    @Param({"100"})
    public int timers;

    /** Firings so far; incremented by every handler. */
    private final AtomicLong fired = new AtomicLong();

    private TimerFrontCore core;
    private WheelTimerEngine engine;
    private BundleTimerView view;
    private ScheduledThreadPoolExecutor stpe;
    private final List<ScheduledFuture<?>> futures = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() {
        switch (impl) {
            case "rouse" -> {
                core = new TimerFrontCore();
                engine = WheelTimerEngine.started(1);
                core.swapTo(engine);
                view = core.newView("jmh");
                TimerHandler count = e -> fired.incrementAndGet();
                for (int i = 0; i < timers; i++) {
                    view.owner("owner-" + i)
                            .scheduleAtFixedRate(Duration.ofNanos(PERIOD_NANOS), Duration.ofNanos(PERIOD_NANOS), count);
                }
            }
            case "stpe" -> {
                stpe = new ScheduledThreadPoolExecutor(1);
                stpe.setRemoveOnCancelPolicy(true);
                Runnable count = fired::incrementAndGet;
                for (int i = 0; i < timers; i++) {
                    futures.add(stpe.scheduleAtFixedRate(count, PERIOD_NANOS, PERIOD_NANOS, TimeUnit.NANOSECONDS));
                }
            }
            default -> throw new IllegalArgumentException(impl);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (core != null) {
            core.release(view);
            core.swapTo(null);
            engine.shutdown();
        }
        if (stpe != null) {
            futures.forEach(f -> f.cancel(false));
            stpe.shutdownNow();
        }
    }

    /** Waits for the next {@value #FIRINGS} firings (parking, so the benchmark thread leaves the CPU to the timers). */
    @Benchmark
    @OperationsPerInvocation(FIRINGS)
    public long fire() {
        long target = fired.get() + FIRINGS;
        long now;
        while ((now = fired.get()) < target) {
            LockSupport.parkNanos(50_000);
        }
        return now;
    }
}
