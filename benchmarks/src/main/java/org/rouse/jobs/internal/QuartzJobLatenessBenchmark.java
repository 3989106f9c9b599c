package org.rouse.jobs.internal;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.rouse.benchmarks.measure.ProcessCpu;

/**
 * Lateness and CPU per run of many local whiteboard jobs against Quartz 2.3.2 (what the Sling Commons Scheduler and
 * the Karaf scheduler run on), side by side in one JVM: {@code jobs} jobs with {@code scheduler.period} = 1 s (in
 * Quartz a {@code SimpleTrigger} repeating forever every second, {@code startNow()}, as Sling's
 * {@code scheduler.immediate=true}), all registered at once so their runs fall due together every second, plus one
 * cron job {@code * * * * * ?} (every second) in the same scheduler. Jobs are non-concurrent in both (Rouse's
 * default, {@code @DisallowConcurrentExecution} in Quartz, as Sling maps {@code scheduler.concurrent=false}).
 *
 * <p>Variants: {@code quartz} (the baseline): RAMJobStore and a {@code SimpleThreadPool} of 5 threads, the size of a
 * Sling Commons Threads pool without configuration (min = max = 5), which Sling's scheduler hands to Quartz as its
 * pool size; {@code rouse}: the whiteboard core on the timer wheel with its default pool of
 * {@value JobWhiteboard#DEFAULT_THREADS} threads; {@code rouse-5}: the same with 5 pool threads, as Quartz.
 *
 * <p>Lateness of a periodic run: its start on a pool thread minus {@code registration + k × period}, k the nearest
 * whole period (so a run more than half a period late would fold; the run counts show whether runs went missing).
 * Lateness of a cron run: wall-clock start minus the whole second it is due at. CPU per run: process CPU time over
 * the measured window (after registration, before shutdown) divided by the runs started in it. Variants alternate in rounds
 * after one warm-up round each.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.rouse.jobs.internal.QuartzJobLatenessBenchmark [jobs] [seconds] [rounds]
 * </pre>
 */
public final class QuartzJobLatenessBenchmark {

    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int QUARTZ_THREADS = 5;
    private static final List<String> VARIANTS = List.of("quartz", "rouse", "rouse-5");

    /** Periodic runs of the running variant; swapped in per round by the main thread before the jobs start. */
    static volatile Recorder periodic;

    /** Cron runs of the running variant; swapped in as {@link #periodic}. */
    static volatile Recorder cron;

    /** Runs of every variant (periodic and cron); incremented by the pool threads, read around a window. */
    static final LongAdder RUNS = new LongAdder();

    /** Registration times of the Quartz jobs, by job index; re-published (a volatile write) after each entry is stored. */
    static volatile long[] quartzStart;

    private QuartzJobLatenessBenchmark() {}

    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Map<String, Histogram> periodicTotals = new LinkedHashMap<>();
        Map<String, Histogram> cronTotals = new LinkedHashMap<>();
        Map<String, long[]> cpu = new LinkedHashMap<>(); // cpu nanos, runs
        for (String variant : VARIANTS) {
            periodicTotals.put(variant, new Histogram(TimeUnit.SECONDS.toNanos(10), 3));
            cronTotals.put(variant, new Histogram(TimeUnit.SECONDS.toNanos(10), 3));
            cpu.put(variant, new long[2]);
        }
        System.out.printf(
                Locale.ROOT,
                "jobs %d at 1 s + 1 cron job every second, %d s per round, %d rounds (+1 warm-up of 5 s), quartz %d"
                        + " threads, rouse %d / 5 threads, %d cores, %s%n",
                jobs,
                seconds,
                rounds,
                QUARTZ_THREADS,
                JobWhiteboard.DEFAULT_THREADS,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        for (String variant : VARIANTS) {
            runRound(variant, jobs, 5, 0);
        }
        for (int round = 1; round <= rounds; round++) {
            for (String variant : VARIANTS) {
                long[] result = runRound(variant, jobs, seconds, round);
                periodicTotals.get(variant).add(lastPeriodic);
                cronTotals.get(variant).add(lastCron);
                cpu.get(variant)[0] += result[0];
                cpu.get(variant)[1] += result[1];
                System.out.printf(
                        Locale.ROOT,
                        "round %d %-8s periodic %s  cron %s  cpu/run %6.1f us%n",
                        round,
                        variant,
                        line(lastPeriodic),
                        line(lastCron),
                        result[0] / 1e3 / Math.max(1, result[1]));
            }
        }
        System.out.println("total (lateness in ms; ratios against quartz)");
        Histogram base = periodicTotals.get("quartz");
        Histogram baseCron = cronTotals.get("quartz");
        double baseCpu = (double) cpu.get("quartz")[0] / Math.max(1, cpu.get("quartz")[1]);
        for (String variant : VARIANTS) {
            Histogram h = periodicTotals.get(variant);
            Histogram c = cronTotals.get(variant);
            double cpuPerRun = (double) cpu.get(variant)[0] / Math.max(1, cpu.get(variant)[1]);
            System.out.printf(
                    Locale.ROOT,
                    "%-8s periodic %s  x p50 %.2f p99 %.2f max %.2f  cpu/run %.1f us x%.2f%n",
                    variant,
                    line(h),
                    ratio(h.getValueAtPercentile(50), base.getValueAtPercentile(50)),
                    ratio(h.getValueAtPercentile(99), base.getValueAtPercentile(99)),
                    ratio(h.getMaxValue(), base.getMaxValue()),
                    cpuPerRun / 1e3,
                    cpuPerRun / baseCpu);
            System.out.printf(
                    Locale.ROOT,
                    "%-8s cron     %s  x p50 %.2f p99 %.2f max %.2f%n",
                    variant,
                    line(c),
                    ratio(c.getValueAtPercentile(50), baseCron.getValueAtPercentile(50)),
                    ratio(c.getValueAtPercentile(99), baseCron.getValueAtPercentile(99)),
                    ratio(c.getMaxValue(), baseCron.getMaxValue()));
        }
    }

    private static double ratio(long value, long base) {
        return (double) value / Math.max(1, base);
    }

    private static String line(Histogram h) {
        return String.format(
                Locale.ROOT,
                "runs %6d p50 %7.3f p99 %7.3f max %7.3f",
                h.getTotalCount(),
                h.getValueAtPercentile(50) / 1e6,
                h.getValueAtPercentile(99) / 1e6,
                h.getMaxValue() / 1e6);
    }

    /** The histograms of the latest round; written and read by the main thread only. */
    private static Histogram lastPeriodic;

    private static Histogram lastCron;

    /** Runs one variant for {@code seconds}; returns {process CPU nanos, runs} of the measured window. */
    private static long[] runRound(String variant, int jobs, int seconds, int round) throws Exception {
        Recorder p = new Recorder(3);
        Recorder c = new Recorder(3);
        periodic = p;
        cron = c;
        long[] result;
        if (variant.equals("quartz")) {
            result = runQuartz(jobs, seconds, round);
        } else {
            result = runRouse(jobs, seconds, variant.equals("rouse") ? JobWhiteboard.DEFAULT_THREADS : 5);
        }
        lastPeriodic = p.getIntervalHistogram();
        lastCron = c.getIntervalHistogram();
        return result;
    }

    /** Records one periodic run of the job registered at {@code registered}. */
    static void recordPeriodic(long registered) {
        long now = System.nanoTime();
        RUNS.increment();
        long k = Math.round((double) (now - registered) / PERIOD_NANOS);
        periodic.recordValue(Math.max(0, now - (registered + k * PERIOD_NANOS)));
    }

    /** Records one cron run due at a whole second of the wall clock. */
    static void recordCron() {
        Instant now = Instant.now();
        RUNS.increment();
        long nanos = now.getNano();
        // a run a hair before its second (clock granularity) counts as on time, not as 1 s late
        cron.recordValue(nanos > 900_000_000L ? 0 : nanos);
    }

    private static void runFor(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static long[] runRouse(int jobs, int seconds, int threads) throws InterruptedException {
        try (BenchJobs whiteboard = BenchJobs.start(null, threads)) {
            for (int i = 0; i < jobs; i++) {
                long registered = System.nanoTime();
                whiteboard.addPeriodic("job-" + i, 1, null, () -> recordPeriodic(registered));
            }
            whiteboard.addCron("cron", "* * * * * ?", QuartzJobLatenessBenchmark::recordCron);
            long cpu = ProcessCpu.nanos();
            long runs = RUNS.sum();
            runFor(TimeUnit.SECONDS.toNanos(seconds));
            return new long[] {ProcessCpu.nanos() - cpu, RUNS.sum() - runs};
        }
    }

    /** A periodic Quartz job: records against its registration time (index in the job data). */
    @DisallowConcurrentExecution
    public static final class PeriodicJob implements org.quartz.Job {
        @Override
        public void execute(JobExecutionContext context) {
            recordPeriodic(quartzStart[context.getMergedJobDataMap().getInt("index")]);
        }
    }

    /** The cron Quartz job. */
    @DisallowConcurrentExecution
    public static final class CronJob implements org.quartz.Job {
        @Override
        public void execute(JobExecutionContext context) {
            recordCron();
        }
    }

    private static long[] runQuartz(int jobs, int seconds, int round) throws Exception {
        Scheduler scheduler = QuartzBench.start("bench-" + round, QUARTZ_THREADS);
        QuartzBench.schedulePeriodic(scheduler, PeriodicJob.class, jobs, published -> quartzStart = published);
        scheduler.scheduleJob(
                JobBuilder.newJob(CronJob.class).withIdentity("cron").build(),
                TriggerBuilder.newTrigger()
                        .withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?"))
                        .build());
        long cpu = ProcessCpu.nanos();
        long runs = RUNS.sum();
        runFor(TimeUnit.SECONDS.toNanos(seconds));
        long[] window = {ProcessCpu.nanos() - cpu, RUNS.sum() - runs};
        scheduler.shutdown(true);
        return window;
    }
}
