package org.rouse.jobs.internal;

import java.util.Properties;
import java.util.function.Consumer;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

/**
 * The Quartz side of the job benchmarks: an in-memory scheduler with a fixed thread pool, as Sling's and Karaf's
 * schedulers configure Quartz, and periodic jobs whose runs read their due times from an array the caller publishes.
 */
final class QuartzBench {

    private QuartzBench() {}

    /** A started RAM-store scheduler named {@code name} with {@code threads} worker threads. */
    static Scheduler start(String name, int threads) throws SchedulerException {
        Properties properties = new Properties();
        properties.setProperty("org.quartz.scheduler.instanceName", name);
        properties.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        properties.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        properties.setProperty("org.quartz.threadPool.threadCount", Integer.toString(threads));
        properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
        scheduler.start();
        return scheduler;
    }

    /**
     * Schedules {@code jobs} runs of {@code job} every second from now, job {@code i} with data {@code index = i};
     * {@code starts[i]} is the nano time it was scheduled at, handed to {@code publish} (a volatile write) after each
     * store so that a run of job {@code i} on a Quartz thread sees it.
     */
    static long[] schedulePeriodic(Scheduler scheduler, Class<? extends Job> job, int jobs, Consumer<long[]> publish)
            throws SchedulerException {
        long[] starts = new long[jobs];
        publish.accept(starts);
        for (int i = 0; i < jobs; i++) {
            starts[i] = System.nanoTime();
            publish.accept(starts);
            scheduler.scheduleJob(
                    JobBuilder.newJob(job)
                            .withIdentity("job-" + i)
                            .usingJobData("index", i)
                            .build(),
                    TriggerBuilder.newTrigger()
                            .startNow()
                            .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(1))
                            .build());
        }
        return starts;
    }
}
