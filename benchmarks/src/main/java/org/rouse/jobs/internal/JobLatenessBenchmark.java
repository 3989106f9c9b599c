package org.rouse.jobs.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;

/**
 * Lateness of local whiteboard jobs against the two ways Sling-era schedulers run the same jobs, side by side in one
 * JVM: Rouse's job whiteboard core on the timer wheel, Quartz 2.3.2 (what the Sling Commons Scheduler and the Karaf
 * scheduler embed: RAMJobStore, a SimpleThreadPool, a SimpleTrigger per job, {@code @DisallowConcurrentExecution}
 * like {@code scheduler.concurrent=false}), and a {@code ScheduledThreadPoolExecutor} that hands each run to a pool
 * (the JDK baseline). Every variant runs the jobs on 8 threads.
 *
 * <p>Lateness of a run: its start on the pool thread minus its ideal due time, {@code registration + k * period}.
 * Variants alternate in rounds (A B C A B C ...) so drift of the shared machine hits all of them.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.rouse.jobs.internal.JobLatenessBenchmark [jobs] [seconds] [rounds]
 * </pre>
 */
public final class JobLatenessBenchmark {

    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int THREADS = 8;

    /** Every run of every variant records here; the running variant's recorder is swapped in per round. */
    static volatile Recorder current;

    /** Registration times of the Quartz jobs, by job index (Quartz instantiates the job class per run). */
    static volatile long[] quartzStart;

    private JobLatenessBenchmark() {}

    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Map<String, Histogram> totals = new LinkedHashMap<>();
        for (String variant : List.of("stpe", "quartz", "rouse")) {
            totals.put(variant, new Histogram(TimeUnit.SECONDS.toNanos(10), 3));
        }
        System.out.printf(
                Locale.ROOT,
                "jobs %d, period 1 s, %d s per round, %d rounds, %d pool threads, %d cores, %s%n",
                jobs,
                seconds,
                rounds,
                THREADS,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        for (int round = 1; round <= rounds; round++) {
            for (String variant : totals.keySet()) {
                Recorder recorder = new Recorder(3);
                current = recorder;
                switch (variant) {
                    case "stpe" -> runStpe(jobs, seconds);
                    case "quartz" -> runQuartz(jobs, seconds, round);
                    default -> runRouse(jobs, seconds);
                }
                Histogram histogram = recorder.getIntervalHistogram();
                totals.get(variant).add(histogram);
                System.out.printf(Locale.ROOT, "round %d %-7s %s%n", round, variant, line(histogram));
            }
        }
        System.out.println("total (lateness in ms; ratio = p50 and p99 against stpe)");
        Histogram base = totals.get("stpe");
        for (Map.Entry<String, Histogram> entry : totals.entrySet()) {
            Histogram h = entry.getValue();
            System.out.printf(
                    Locale.ROOT,
                    "%-7s %s  p50 x%.2f  p99 x%.2f%n",
                    entry.getKey(),
                    line(h),
                    (double) h.getValueAtPercentile(50) / Math.max(1, base.getValueAtPercentile(50)),
                    (double) h.getValueAtPercentile(99) / Math.max(1, base.getValueAtPercentile(99)));
        }
    }

    private static String line(Histogram h) {
        return String.format(
                Locale.ROOT,
                "runs %6d  p50 %7.3f  p99 %7.3f  p99.9 %7.3f  max %7.3f",
                h.getTotalCount(),
                h.getValueAtPercentile(50) / 1e6,
                h.getValueAtPercentile(99) / 1e6,
                h.getValueAtPercentile(99.9) / 1e6,
                h.getMaxValue() / 1e6);
    }

    /** Records one run of the job registered at {@code registered}. */
    static void record(long registered) {
        long now = System.nanoTime();
        long k = Math.round((double) (now - registered) / PERIOD_NANOS);
        current.recordValue(Math.max(0, now - (registered + k * PERIOD_NANOS)));
    }

    private static ThreadPoolExecutor pool() {
        return new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
    }

    private static void runFor(int seconds) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static void runRouse(int jobs, int seconds) throws InterruptedException {
        try (BenchJobs whiteboard = BenchJobs.start(null, THREADS)) {
            for (int i = 0; i < jobs; i++) {
                long registered = System.nanoTime();
                whiteboard.addPeriodic("job-" + i, 1, null, () -> record(registered));
            }
            runFor(seconds);
        }
    }

    private static void runStpe(int jobs, int seconds) throws InterruptedException {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
        ThreadPoolExecutor pool = pool();
        for (int i = 0; i < jobs; i++) {
            long registered = System.nanoTime();
            timer.scheduleAtFixedRate(
                    () -> pool.execute(() -> record(registered)), 0, PERIOD_NANOS, TimeUnit.NANOSECONDS);
        }
        runFor(seconds);
        timer.shutdownNow();
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** The Quartz job: records against its registration time (index in the job data). */
    @DisallowConcurrentExecution
    public static final class QuartzJob implements org.quartz.Job {
        @Override
        public void execute(JobExecutionContext context) {
            record(quartzStart[context.getMergedJobDataMap().getInt("index")]);
        }
    }

    private static void runQuartz(int jobs, int seconds, int round) throws Exception {
        Scheduler scheduler = QuartzBench.start("bench-" + round, THREADS);
        QuartzBench.schedulePeriodic(scheduler, QuartzJob.class, jobs, published -> quartzStart = published);
        runFor(seconds);
        scheduler.shutdown(true);
    }
}
