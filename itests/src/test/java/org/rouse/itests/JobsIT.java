package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.rouse.itests.consumer.JobConsumerActivator;
import org.rouse.timer.TimerService;

/**
 * Whiteboard jobs in real Felix: {@code Runnable} and {@code Callable} services with the Sling/Karaf
 * {@code scheduler.*} properties run on the timer service, never overlap unless concurrent, stop with their service
 * or bundle, keep running through a timer provider update, and bad properties are logged and not scheduled.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class JobsIT extends RouseTestSupport {

    @Inject
    TimerService timers;

    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();

    @After
    public void unregister() {
        for (ServiceRegistration<?> registration : registrations) {
            registration.unregister();
        }
        registrations.clear();
    }

    @Test(timeout = 30_000)
    public void aPeriodicJobRunsAtOnceWhenImmediateAndThenEverySecond() throws Exception {
        ConcurrentLinkedQueue<Long> starts = new ConcurrentLinkedQueue<>();
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch three = new CountDownLatch(3);
        long registered = System.nanoTime();
        register(
                Runnable.class,
                (Runnable) () -> {
                    starts.add(System.nanoTime());
                    first.countDown();
                    three.countDown();
                },
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.name",
                "it-period");
        assertTrue(first.await(5, TimeUnit.SECONDS));
        assertTrue(
                "immediate: the first run does not wait a period",
                starts.peek() - registered < TimeUnit.MILLISECONDS.toNanos(900));
        assertTrue(three.await(10, TimeUnit.SECONDS));
        Long[] at = starts.toArray(new Long[0]);
        // the runs are at a fixed rate from the first arming, which follows `registered`: the third is due two
        // periods later. (The gap between two start times bounds nothing: a late second run shortens it.)
        assertTrue(
                "a period apart: third run " + (at[2] - registered) / 1_000_000 + " ms after the registration",
                at[2] - registered >= TimeUnit.SECONDS.toNanos(2));
        String report = jobsReport();
        assertTrue(report, line(report, "it-period").contains("every 1s"));
    }

    @Test(timeout = 30_000)
    public void aCallableRunsTimesTimesAndThenStops() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger clock = new AtomicInteger();
        register(
                Callable.class,
                (Callable<String>) () -> "run " + runs.incrementAndGet(),
                "scheduler.period",
                "1",
                "scheduler.immediate",
                "true",
                "scheduler.times",
                2,
                "scheduler.name",
                "it-times");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> line(jobsReport(), "it-times").contains(" done "));
        register(
                Runnable.class,
                (Runnable) clock::incrementAndGet,
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.name",
                "it-clock");
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.get() >= 3); // two more periods have passed
        assertEquals(2, runs.get());
    }

    @Test(timeout = 30_000)
    public void aCronJobRunsOncePerSecondOnTheSecond() throws Exception {
        ConcurrentLinkedQueue<Instant> starts = new ConcurrentLinkedQueue<>();
        CountDownLatch three = new CountDownLatch(3);
        register(
                Runnable.class,
                (Runnable) () -> {
                    starts.add(Instant.now());
                    three.countDown();
                },
                "scheduler.expression",
                "* * * * * ?",
                "scheduler.name",
                "it-cron");
        assertTrue(three.await(10, TimeUnit.SECONDS));
        Set<Long> seconds = new HashSet<>();
        for (Instant start : starts) {
            assertTrue("one run per second: " + starts, seconds.add(start.getEpochSecond()));
        }
        assertTrue(jobsReport(), line(jobsReport(), "it-cron").contains("cron * * * * * ?"));
    }

    @Test(timeout = 40_000)
    public void aSlowJobNeverOverlapsItselfUnlessConcurrent() throws Exception {
        AtomicInteger serialInFlight = new AtomicInteger();
        AtomicInteger serialMax = new AtomicInteger();
        AtomicInteger serialRuns = new AtomicInteger();
        AtomicInteger concurrentInFlight = new AtomicInteger();
        AtomicInteger concurrentMax = new AtomicInteger();
        register(
                Runnable.class,
                slowJob(serialInFlight, serialMax, serialRuns),
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.name",
                "it-serial");
        register(
                Runnable.class,
                slowJob(concurrentInFlight, concurrentMax, new AtomicInteger()),
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.concurrent",
                true,
                "scheduler.name",
                "it-concurrent");
        await().atMost(Duration.ofSeconds(30)).until(() -> serialRuns.get() >= 3);
        assertEquals("scheduler.concurrent=false: never two runs at once", 1, serialMax.get());
        assertTrue("the counter sees overlap when it is allowed", concurrentMax.get() >= 2);
        String line = line(jobsReport(), "it-serial");
        String[] columns = line.trim().split("\\s+");
        assertTrue("skipped runs are counted: " + line, Long.parseLong(columns[columns.length - 4]) >= 1);
    }

    /** A job that takes 2.5 periods (its work is waiting) and records how many runs of it are in flight. */
    private static Runnable slowJob(AtomicInteger inFlight, AtomicInteger max, AtomicInteger runs) {
        return () -> {
            int now = inFlight.incrementAndGet();
            max.accumulateAndGet(now, Math::max);
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2500);
            for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
            inFlight.decrementAndGet();
            runs.incrementAndGet();
        };
    }

    @Test(timeout = 30_000)
    public void badPropertiesAreLoggedAndNotScheduledAndRunOnRunsLocally() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = System.err;
        List<Long> ids = new ArrayList<>();
        CountDownLatch leaderRan = new CountDownLatch(1);
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            ids.add(register(Runnable.class, (Runnable) () -> {}, "scheduler.period", -5L, "scheduler.name", "bad-1"));
            ids.add(register(
                    Runnable.class,
                    (Runnable) () -> {},
                    "scheduler.expression",
                    "every second",
                    "scheduler.name",
                    "bad-2"));
            ids.add(register(
                    Runnable.class,
                    (Runnable) () -> {},
                    "scheduler.period",
                    1L,
                    "scheduler.runOn",
                    "ELSEWHERE",
                    "scheduler.name",
                    "bad-3"));
            ids.add(register(
                    Runnable.class,
                    (Runnable) () -> {},
                    "scheduler.period",
                    1L,
                    "scheduler.times",
                    0,
                    "scheduler.name",
                    "bad-4"));
            register(
                    Runnable.class,
                    (Runnable) leaderRan::countDown,
                    "scheduler.period",
                    1L,
                    "scheduler.immediate",
                    true,
                    "scheduler.runOn",
                    "LEADER",
                    "scheduler.name",
                    "it-leader");
            assertTrue("runOn=LEADER runs locally without a cluster", leaderRan.await(5, TimeUnit.SECONDS));
        } finally {
            System.setErr(err);
        }
        String text = log.toString(StandardCharsets.UTF_8);
        String[] expected = {
            "scheduler.period = -5 (long) is not allowed: whole seconds",
            "scheduler.expression = \"every second\" is not allowed: a Quartz cron expression",
            "scheduler.runOn = \"ELSEWHERE\" is not allowed: LEADER or SINGLE",
            "scheduler.times = 0 (integer) is not allowed: a whole number of runs"
        };
        for (int i = 0; i < expected.length; i++) {
            String want = "Job service of bundle " + context.getBundle().getSymbolicName() + " ["
                    + context.getBundle().getBundleId() + "], service.id " + ids.get(i) + " is not scheduled: "
                    + expected[i];
            assertTrue("logged: " + want + "\nin:\n" + text, text.contains(want));
        }
        assertTrue(text, text.contains("has scheduler.runOn=LEADER: no cluster is configured"));
        String report = jobsReport();
        for (int i = 1; i <= 4; i++) {
            assertFalse(report, report.contains("bad-" + i));
        }
    }

    @Test(timeout = 30_000)
    public void aJobStopsWithItsBundleAndLeavesNoTimer() throws Exception {
        long before = jobTimersPending();
        Bundle consumer = context.installBundle("rouse-job-consumer", consumerBundle());
        try {
            consumer.start();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> runsOf(JobConsumerActivator.NAME) >= 1 && jobTimersPending() == before + 1);
            consumer.stop();
            assertFalse(jobsReport().contains(JobConsumerActivator.NAME));
            assertEquals("the job's timer is gone", before, jobTimersPending());
        } finally {
            consumer.uninstall();
        }
    }

    @Test(timeout = 60_000)
    public void jobsKeepRunningThroughATimerProviderUpdate() throws Exception {
        ConcurrentLinkedQueue<Instant> cronStarts = new ConcurrentLinkedQueue<>();
        AtomicInteger periodic = new AtomicInteger();
        register(
                Runnable.class,
                (Runnable) () -> cronStarts.add(Instant.now()),
                "scheduler.expression",
                "* * * * * ?",
                "scheduler.name",
                "it-swap-cron");
        register(
                Runnable.class,
                (Runnable) periodic::incrementAndGet,
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.name",
                "it-swap-period");
        await().atMost(Duration.ofSeconds(10)).until(() -> cronStarts.size() >= 1 && periodic.get() >= 1);

        updateFromJar(bundle("org.rouse.timer"));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "wheel".equals(timers.statistics().engine()));
        int cronAfterSwap = cronStarts.size();
        int periodicAfterSwap = periodic.get();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> cronStarts.size() >= cronAfterSwap + 2 && periodic.get() >= periodicAfterSwap + 2);
        Set<Long> seconds = new HashSet<>();
        for (Instant start : cronStarts) {
            assertTrue("no cron second ran twice across the swap: " + cronStarts, seconds.add(start.getEpochSecond()));
        }
    }

    @Test(timeout = 30_000)
    public void triggerRunsAJobNowAndWritesToTheSession() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        register(Runnable.class, (Runnable) ran::countDown, "scheduler.period", 3600L, "scheduler.name", "it-hourly");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            invoke("trigger", "it-hourly");
            invoke("jobs", null);
        } finally {
            System.setOut(previous);
        }
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text, text.contains("job it-hourly started"));
        assertTrue(text, text.contains("it-hourly"));
        assertTrue(text, text.contains("every 3600s"));
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** Registers a job service from the test bundle; returns its service.id. */
    private <T> long register(Class<T> type, T job, Object... keyValues) {
        Hashtable<String, Object> properties = new Hashtable<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put((String) keyValues[i], keyValues[i + 1]);
        }
        ServiceRegistration<T> registration = context.registerService(type, job, properties);
        registrations.add(registration);
        return (Long) registration.getReference().getProperty("service.id");
    }

    private Object invoke(String function, String argument) throws Exception {
        ServiceReference<?>[] references = context.getServiceReferences(
                (String) null, "(&(osgi.command.scope=rouse)(osgi.command.function=" + function + "))");
        assertNotNull("rouse:" + function + " is registered", references);
        Object command = context.getService(references[0]);
        try {
            return argument == null
                    ? command.getClass().getMethod(function).invoke(command)
                    : command.getClass().getMethod(function, String.class).invoke(command, argument);
        } finally {
            context.ungetService(references[0]);
        }
    }

    /** The rouse:jobs table as text. */
    private String jobsReport() throws Exception {
        ServiceReference<?>[] references = context.getServiceReferences(
                (String) null, "(&(osgi.command.scope=rouse)(osgi.command.function=jobs))");
        assertNotNull("rouse:jobs is registered", references);
        Object command = context.getService(references[0]);
        try {
            return (String) command.getClass().getMethod("report").invoke(command);
        } finally {
            context.ungetService(references[0]);
        }
    }

    private static String line(String report, String name) {
        for (String line : report.split("\\R")) {
            if (line.startsWith(name + " ")) {
                return line;
            }
        }
        throw new AssertionError("no job " + name + " in\n" + report);
    }

    private long runsOf(String name) throws Exception {
        String report = jobsReport();
        if (!report.contains(name + " ")) {
            return -1;
        }
        String[] columns = line(report, name).trim().split("\\s+");
        return Long.parseLong(columns[columns.length - 6]);
    }

    /** The pending timers of org.rouse.jobs's view, as rouse:timers prints them (0 when it has none). */
    private long jobTimersPending() throws Exception {
        ServiceReference<?>[] references = context.getServiceReferences(
                (String) null, "(&(osgi.command.scope=rouse)(osgi.command.function=timers))");
        Object command = context.getService(references[0]);
        try {
            String report = (String) command.getClass().getMethod("report").invoke(command);
            for (String line : report.split("\\R")) {
                String[] columns = line.trim().split("\\s+");
                if (columns[0].equals("org.rouse.jobs") || columns[0].startsWith("org.rouse.jobs[")) {
                    return Long.parseLong(columns[1]);
                }
            }
            return 0;
        } finally {
            context.ungetService(references[0]);
        }
    }

    /** A bundle made now from {@link JobConsumerActivator}'s class file. */
    private static InputStream consumerBundle() throws Exception {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", "org.rouse.itests.job.consumer");
        main.putValue("Bundle-Version", "1.0.0");
        main.putValue("Bundle-Activator", JobConsumerActivator.class.getName());
        main.putValue("Import-Package", "org.osgi.framework");
        String classFile = JobConsumerActivator.class.getName().replace('.', '/') + ".class";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest);
                InputStream in = JobConsumerActivator.class.getClassLoader().getResourceAsStream(classFile)) {
            assertNotNull(classFile, in);
            jar.putNextEntry(new JarEntry(classFile));
            in.transferTo(jar);
            jar.closeEntry();
        }
        return new java.io.ByteArrayInputStream(bytes.toByteArray());
    }
}
