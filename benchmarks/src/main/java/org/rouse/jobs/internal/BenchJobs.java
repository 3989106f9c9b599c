package org.rouse.jobs.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.jobs.spi.JobPlacement;
import org.rouse.timer.internal.WheelTimerEngine;

/**
 * One node's job whiteboard for benchmarks outside this package: the whiteboard core ({@link JobsCore}) on its own
 * timer wheel and job pool, as {@code JobWhiteboard} builds it, with an optional cluster job placement.
 *
 * <pre>{@code
 * try (BenchJobs jobs = BenchJobs.start(placement)) {
 *     jobs.addPeriodic("report", 1, JobPlacement.LEADER, () -> ...);
 * }
 * }</pre>
 */
public final class BenchJobs implements AutoCloseable {

    private final WheelTimerEngine engine;
    private final TimerFrontCore front;
    private final BundleTimerView view;
    private final ThreadPoolExecutor pool;
    private final JobsCore core;
    /** Service ids handed out; only the creating thread adds jobs. */
    private long nextId;

    private BenchJobs(JobPlacement placement, int threads) {
        engine = WheelTimerEngine.started(4);
        front = new TimerFrontCore();
        front.swapTo(engine);
        view = front.newView("org.rouse.jobs");
        pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        core = new JobsCore(view, pool);
        if (placement != null) {
            core.placement(placement);
        }
    }

    /** A started whiteboard core with {@code JobWhiteboard}'s default pool size; {@code placement} may be null. */
    public static BenchJobs start(JobPlacement placement) {
        return new BenchJobs(placement, JobWhiteboard.DEFAULT_THREADS);
    }

    /** As {@link #start(JobPlacement)} with a pool of {@code threads}. */
    public static BenchJobs start(JobPlacement placement, int threads) {
        return new BenchJobs(placement, threads);
    }

    /** Adds a job with {@code scheduler.period} = {@code seconds}, immediate, {@code runOn} may be null. */
    public boolean addPeriodic(String name, long seconds, String runOn, Runnable task) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("scheduler.period", seconds);
        properties.put("scheduler.immediate", true);
        properties.put("scheduler.name", name);
        if (runOn != null) {
            properties.put("scheduler.runOn", runOn);
        }
        return core.add(nextId++, "bench [0]", "Runnable", properties::get, Executors.callable(task));
    }

    /** Adds a job with {@code scheduler.expression} = {@code cron}. */
    public boolean addCron(String name, String cron, Runnable task) {
        Map<String, Object> properties = Map.of("scheduler.expression", cron, "scheduler.name", name);
        return core.add(nextId++, "bench [0]", "Runnable", properties::get, Executors.callable(task));
    }

    /** Stops every job, the timer and the pool. */
    @Override
    public void close() throws InterruptedException {
        core.close();
        front.release(view);
        front.swapTo(null);
        engine.shutdown();
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }
}
