package org.rouse.benchmarks.timer;

import io.netty.util.HashedWheelTimer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.TimerHandler;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.internal.WheelTimerEngine;

/**
 * Bytes of heap retained per pending timer (1,000,000 timers due in an hour, heap measured after GC before and
 * after; the caller keeps each handle as a real consumer would): Rouse (handle, arming, wheel node),
 * {@code ScheduledThreadPoolExecutor} and {@code HashedWheelTimer}. Run with a fixed heap for stable figures:
 *
 * <pre>{@code
 * java -Xms2g -Xmx2g -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.timer.TimerFootprint [count]
 * }</pre>
 */
public final class TimerFootprint {

    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    private TimerFootprint() {}

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.println("| timer | bytes per pending timer |");
        System.out.println("| --- | ---: |");
        row("Rouse (wheel)", count, TimerFootprint::rouse);
        row("ScheduledThreadPoolExecutor", count, TimerFootprint::stpe);
        row("HashedWheelTimer", count, TimerFootprint::netty);
    }

    interface Filler {
        AutoCloseable fill(int count, List<Object> keep) throws Exception;
    }

    private static void row(String name, int count, Filler filler) throws Exception {
        List<Object> keep = new ArrayList<>(count);
        long before = usedAfterGc();
        try (AutoCloseable running = filler.fill(count, keep)) {
            long after = usedAfterGc();
            long listBytes = 4L * count; // the ArrayList's references (compressed oops) are not the timer's
            System.out.printf(Locale.ROOT, "| %s | %.0f |%n", name, (after - before - listBytes) / (double) count);
        }
        keep.clear();
    }

    private static AutoCloseable rouse(int count, List<Object> keep) {
        TimerFrontCore core = new TimerFrontCore();
        WheelTimerEngine engine = WheelTimerEngine.started(1);
        core.swapTo(engine);
        BundleTimerView view = core.newView("footprint");
        TimerOwner owner = view.owner("footprint");
        TimerHandler nothing = e -> {};
        for (int i = 0; i < count; i++) {
            keep.add(owner.schedule(Duration.ofNanos(HOUR + i * 1_000L), nothing));
        }
        return () -> {
            core.release(view);
            core.swapTo(null);
            engine.shutdown();
        };
    }

    private static AutoCloseable stpe(int count, List<Object> keep) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
        executor.setRemoveOnCancelPolicy(true);
        Runnable nothing = () -> {};
        for (int i = 0; i < count; i++) {
            keep.add(executor.schedule(nothing, HOUR + i * 1_000L, TimeUnit.NANOSECONDS));
        }
        return executor::shutdownNow;
    }

    private static AutoCloseable netty(int count, List<Object> keep) {
        HashedWheelTimer timer = new HashedWheelTimer();
        for (int i = 0; i < count; i++) {
            keep.add(timer.newTimeout(t -> {}, HOUR + i * 1_000L, TimeUnit.NANOSECONDS));
        }
        return timer::stop;
    }

    private static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
