package org.rouse.jobs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.jobs.spi.JobPlacement;

/** The whiteboard core on a real timer front (its built-in standby engine) and a real thread pool. */
@Timeout(30)
class JobsCoreTest {

    private final TimerFrontCore front = new TimerFrontCore();
    private final BundleTimerView timers = front.newView("org.rouse.jobs");
    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    private final JobsCore core = new JobsCore(timers, pool);
    private long nextServiceId = 100;

    @AfterEach
    void tearDown() throws InterruptedException {
        core.close();
        front.release(timers);
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    private long add(Runnable job, Object... keyValues) {
        Map<String, Object> properties = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put((String) keyValues[i], keyValues[i + 1]);
        }
        long id = nextServiceId++;
        assertTrue(core.add(id, "test [1]", "Runnable", properties::get, Executors.callable(job)));
        return id;
    }

    /**
     * A placement whose join takes a while (a ZooKeeper round trip) and whose memberships never run here: the job
     * belongs to another node.
     */
    private static final class SlowElsewhere implements JobPlacement {
        /** Counted down by the job if it ever runs here. */
        final CountDownLatch ranHere = new CountDownLatch(1);

        @Override
        public Membership join(String jobName, String runOn) {
            try {
                // long enough for an already armed immediate run to fire on the real timer
                ranHere.await(300, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Membership() {
                @Override
                public boolean runsHere() {
                    return false;
                }

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void anImmediateRunOnJobNeverRunsBeforeItsPlacementSaysWhere() throws Exception {
        SlowElsewhere elsewhere = new SlowElsewhere();
        core.placement(elsewhere);
        AtomicInteger runs = new AtomicInteger();
        add(
                () -> {
                    runs.incrementAndGet();
                    elsewhere.ranHere.countDown();
                },
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.runOn",
                "LEADER",
                "scheduler.name",
                "leader-only");
        Job job = core.byName("leader-only").orElseThrow();
        // the immediate due run has been decided (seen as running elsewhere) ...
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> job.runsElsewhere() >= 1);
        // ... and no run of this node's started: before the membership was set, the run started as a local one
        assertEquals(0, runs.get(), "runs on a node that is not the job's leader");
        assertEquals(0, job.statistics().runs());
    }

    /** A placement whose memberships run every job here, as on the leader. */
    private static final JobPlacement HERE = (jobName, runOn) -> new JobPlacement.Membership() {
        @Override
        public boolean runsHere() {
            return true;
        }

        @Override
        public void close() {}
    };

    @Test
    void aRunOnJobRunsNowhereOnceItsPlacementGoesAwayUntilOneReturns() throws Exception {
        core.placement(HERE);
        AtomicInteger runs = new AtomicInteger();
        add(
                runs::incrementAndGet,
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.runOn",
                "LEADER",
                "scheduler.name",
                "leader-only");
        Job job = core.byName("leader-only").orElseThrow();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() >= 1);

        core.placementGone(HERE); // the cluster bundle stops: other nodes may lead the job now
        assertEquals("nowhere", job.placementState());
        int runsWhenGone = runs.get();
        long elsewhereWhenGone = job.runsElsewhere();
        // its next due run is decided (not here) ...
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> job.runsElsewhere() > elsewhereWhenGone);
        // ... and did not start as a local run
        assertEquals(runsWhenGone, runs.get(), "a runOn job ran here after its placement went away");

        core.placement(HERE); // the cluster bundle is back
        assertEquals("here", job.placementState());
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() > runsWhenGone);
    }

    @Test
    void aJobsCoreThatNeverHadAPlacementRunsRunOnJobsHere() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        add(runs::incrementAndGet, "scheduler.period", 1L, "scheduler.immediate", true, "scheduler.runOn", "SINGLE");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() >= 1);
    }

    @Test
    void anImmediateJobRunsTimesTimesAndIsThenDone() throws Exception {
        CountDownLatch three = new CountDownLatch(3);
        AtomicInteger runs = new AtomicInteger();
        add(
                () -> {
                    runs.incrementAndGet();
                    three.countDown();
                },
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.times",
                3,
                "scheduler.name",
                "thrice");
        Job job = core.byName("thrice").orElseThrow();
        assertTrue(three.await(10, TimeUnit.SECONDS));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> job.inFlight() == 0);
        assertTrue(job.isFinished());
        assertEquals(0, job.pendingTimers(), "the periodic timer is cancelled after the last run");
        assertTrue(job.nextRun().isEmpty());
        assertEquals(3, runs.get());
        assertEquals(3, job.statistics().runs());
    }

    @Test
    void aNonConcurrentJobSkipsRunsThatWouldOverlapAndTriggerSaysBusy() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        add(
                () -> {
                    running.countDown();
                    try {
                        release.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "scheduler.period",
                1L,
                "scheduler.immediate",
                true,
                "scheduler.name",
                "slow");
        Job job = core.byName("slow").orElseThrow();
        assertTrue(running.await(10, TimeUnit.SECONDS));
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> job.statistics().skipped() >= 1);
        assertEquals(Job.Outcome.BUSY, job.trigger());
        assertEquals(1, job.inFlight());
        release.countDown();
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() -> job.statistics().runs() >= 1);
    }

    @Test
    void triggerRunsNowAndTheShellReportsIt() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        add(ran::countDown, "scheduler.period", 3600L, "scheduler.name", "hourly");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JobCommands commands = new JobCommands(core);
        commands.trigger("hourly", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertEquals(
                "job hourly started", bytes.toString(StandardCharsets.UTF_8).trim());
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() -> core.byName("hourly").orElseThrow().statistics().runs() == 1);
        String report = commands.report();
        assertTrue(report.contains("hourly"), report);
        assertTrue(report.contains("every 3600s"), report);
        bytes.reset();
        commands.trigger("nope", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("no job named nope"));
    }

    @Test
    void aCronJobRunsEverySecondAndStopsWhenRemoved() throws Exception {
        CountDownLatch two = new CountDownLatch(2);
        AtomicInteger runs = new AtomicInteger();
        long id = add(
                () -> {
                    runs.incrementAndGet();
                    two.countDown();
                },
                "scheduler.expression",
                "* * * * * ?");
        assertTrue(two.await(10, TimeUnit.SECONDS));
        Job job = core.jobs().get(0);
        assertTrue(job.nextRun().isPresent());
        assertTrue(job.statistics().maxLatenessNanos() >= 0);
        core.remove(id, "Runnable");
        assertTrue(job.isStopped());
        assertEquals(0, timers.statistics().pending(), "no timer left");
        assertTrue(core.jobs().isEmpty());
    }

    @Test
    void badPropertiesAndDuplicateNamesAreNotScheduled() {
        Map<String, Object> bad = Map.of("scheduler.period", -1L);
        assertFalse(core.add(1, "test [1]", "Runnable", bad::get, () -> null));
        Map<String, Object> named = Map.of("scheduler.period", 60L, "scheduler.name", "same");
        assertTrue(core.add(2, "test [1]", "Runnable", named::get, () -> null));
        assertFalse(core.add(3, "test [1]", "Runnable", named::get, () -> null));
        assertFalse(core.add(2, "test [1]", "Callable", named::get, () -> null), "one job per service");
        core.remove(2, "Callable");
        assertEquals(1, core.jobs().size(), "the Callable reference does not remove the Runnable's job");
        assertEquals(1, timers.statistics().pending());
    }
}
