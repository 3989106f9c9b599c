package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.composite;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.inject.Inject;
import org.apache.felix.hc.api.Result;
import org.apache.felix.hc.api.ResultLog;
import org.apache.felix.hc.api.execution.HealthCheckExecutionOptions;
import org.apache.felix.hc.api.execution.HealthCheckExecutionResult;
import org.apache.felix.hc.api.execution.HealthCheckExecutor;
import org.apache.felix.hc.api.execution.HealthCheckSelector;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.CoreOptions;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;

/**
 * The Rouse health checks run by Felix HC core's own executor (by tag {@code rouse}) in real Felix with real SCR and
 * ConfigAdmin: a real blocking timer handler drives the timer check to CRITICAL (stuck, then late), a real contended
 * lock drives the lock check to WARN, a stopped engine bundle to WARN or CRITICAL, and each goes back to OK. The
 * example consumers are not installed, so the only timers and locks are the test's own.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class HealthChecksIT extends RouseTestSupport {

    private static final String TIMER_PID = "org.rouse.timer.health";
    private static final String LOCK_PID = "org.rouse.lock.health";
    private static final Duration SETTLE = Duration.ofSeconds(20);

    @Inject
    HealthCheckExecutor executor;

    @Inject
    ConfigurationAdmin configAdmin;

    @Inject
    TimerService timers;

    @Inject
    LockService locks;

    @Configuration
    @Override
    public Option[] config() {
        List<Option> rouse = new ArrayList<>();
        for (String name : List.of("org.rouse.api", "org.rouse.timer", "org.rouse.selector", "org.rouse.lock")) {
            rouse.add(CoreOptions.bundle(RouseOptions.jar(name).toURI().toString())
                    .startLevel(4));
        }
        return new Option[] {
            RouseOptions.platform(),
            RouseOptions.healthChecks(),
            composite(rouse.toArray(Option[]::new)),
            junitBundles(),
            RouseOptions.testSupport()
        };
    }

    @After
    public void deleteConfigurations() throws Exception {
        for (String pid : List.of(TIMER_PID, LOCK_PID)) {
            org.osgi.service.cm.Configuration configuration = configAdmin.getConfiguration(pid, "?");
            if (configuration.getProperties() != null) {
                configuration.delete();
            }
        }
    }

    @Test(timeout = 60_000)
    public void theApiBundleWiresFelixHcAndEveryCheckRunsByTagRouse() {
        boolean wired =
                bundle("org.rouse.api").adapt(BundleWiring.class).getRequiredWires("osgi.wiring.package").stream()
                        .anyMatch(w -> "org.apache.felix.hc.api"
                                .equals(w.getCapability().getAttributes().get("osgi.wiring.package")));
        assertTrue("the optional import of org.apache.felix.hc.api is wired", wired);
        await().atMost(SETTLE).untilAsserted(() -> {
            List<String> names = new ArrayList<>();
            for (HealthCheckExecutionResult r : run("rouse")) {
                names.add(r.getHealthCheckMetadata().getName());
                assertTrue(r.getHealthCheckMetadata().getTags().contains("rouse"));
            }
            names.sort(null);
            assertEquals(List.of("Rouse lock service", "Rouse selector service", "Rouse timer service"), names);
            assertEquals(Result.Status.OK, result("rouse-selector").getStatus());
        });
    }

    @Test(timeout = 90_000)
    public void aBlockingHandlerIsStuckThenItsFollowersAreLateThenTheCheckIsOkAgain() throws Exception {
        configure(
                TIMER_PID,
                "lateness.p99.warn.ms",
                100.0,
                "lateness.p99.critical.ms",
                250.0,
                "lateness.window.seconds",
                2L,
                "stuck.handler.ms",
                300L);
        await().atMost(SETTLE).until(() -> result("rouse-timer").getStatus() == Result.Status.OK);

        Bundle self = context.getBundle(); // the consuming bundle: this test's, named "symbolic.name[id]"
        String probe = self.getSymbolicName() + "[" + self.getBundleId() + "]";
        TimerOwner owner = timers.owner("hc-owner");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        owner.schedule(Duration.ZERO, e -> {
            running.countDown();
            release.await(); // a real handler that blocks its owner until the test lets it go
        });
        assertTrue(running.await(20, TimeUnit.SECONDS));
        int followers = 20;
        CountDownLatch followed = new CountDownLatch(followers);
        for (int i = 0; i < followers; i++) {
            owner.schedule(Duration.ZERO, e -> followed.countDown()); // due now, queued behind the blocked handler
        }
        try {
            await().atMost(SETTLE).untilAsserted(() -> {
                Result timer = result("rouse-timer");
                assertEquals(text(timer), Result.Status.CRITICAL, timer.getStatus());
                assertTrue(
                        text(timer),
                        text(timer).contains("timer handler stuck: bundle " + probe + ", owner 'hc-owner'"));
                assertTrue(text(timer), text(timer).contains("(threshold 300 ms); see rouse:running"));
            });
        } finally {
            release.countDown();
        }
        assertTrue(followed.await(20, TimeUnit.SECONDS));

        // every follower started over 300 ms late: the p99 of the 2 s window is past the CRITICAL threshold
        Result late = result("rouse-timer");
        assertEquals(text(late), Result.Status.CRITICAL, late.getStatus());
        assertTrue(text(late), text(late).contains("reached the CRITICAL threshold 250 ms; see rouse:late"));
        assertFalse(text(late), text(late).contains("stuck"));

        // the late starts leave the window: OK again
        await().atMost(SETTLE).untilAsserted(() -> {
            Result after = result("rouse-timer");
            assertEquals(text(after), Result.Status.OK, after.getStatus());
        });
    }

    @Test(timeout = 90_000)
    public void aLongWaitForAHeldLockWarnsNamingTheLockThenPasses() throws Exception {
        configure(LOCK_PID, "wait.warn.ms", 100.0, "wait.window.seconds", 1L);
        SwappableLock lock = locks.lock("hc-lock");
        await().atMost(SETTLE).until(() -> result("rouse-lock").getStatus() == Result.Status.OK);

        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch releaseHolder = new CountDownLatch(1);
        Thread holder = new Thread(
                () -> {
                    lock.lock();
                    try {
                        held.countDown();
                        releaseHolder.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        lock.unlock();
                    }
                },
                "hc-holder");
        AtomicLong waitedNanos = new AtomicLong();
        Thread waiter = new Thread(
                () -> {
                    long start = System.nanoTime();
                    lock.lock();
                    waitedNanos.set(System.nanoTime() - start);
                    lock.unlock();
                },
                "hc-waiter");
        holder.start();
        assertTrue(held.await(20, TimeUnit.SECONDS));
        waiter.start();
        await().atMost(SETTLE).until(() -> parked(waiter));
        // the condition under test: the waiter stays parked behind the holder for 200 ms of real time
        await().pollDelay(Duration.ofMillis(200)).atMost(SETTLE).until(() -> parked(waiter));
        releaseHolder.countDown();
        holder.join(20_000);
        waiter.join(20_000);
        assertFalse("holder ended", holder.isAlive());
        assertFalse("waiter ended", waiter.isAlive());
        assertTrue("waited " + waitedNanos.get() + " ns", waitedNanos.get() >= TimeUnit.MILLISECONDS.toNanos(200));

        Result contended = result("rouse-lock");
        assertEquals(text(contended), Result.Status.WARN, contended.getStatus());
        assertTrue(text(contended), text(contended).contains("lock 'hc-lock' (strategy " + lock.strategy() + ")"));
        assertTrue(text(contended), text(contended).contains("reached 100.000 ms"));
        assertTrue(text(contended), text(contended).contains("see rouse:contended"));

        // once the check's marks have moved past the wait (one to two 1 s windows): OK again
        await().atMost(SETTLE).untilAsserted(() -> {
            Result after = result("rouse-lock");
            assertEquals(text(after), Result.Status.OK, after.getStatus());
        });
    }

    @Test(timeout = 120_000)
    public void aMissingEngineIsReportedUntilItsBundleIsBack() throws Exception {
        Bundle lockEngine = bundle("org.rouse.lock");
        Bundle selectorEngine = bundle("org.rouse.selector");
        lockEngine.stop();
        selectorEngine.stop();
        try {
            await().atMost(SETTLE).untilAsserted(() -> {
                Result lock = result("rouse-lock");
                assertEquals(text(lock), Result.Status.WARN, lock.getStatus());
                assertTrue(text(lock), text(lock).contains("no lock engine"));
                Result selector = result("rouse-selector");
                assertEquals(text(selector), Result.Status.CRITICAL, selector.getStatus());
                assertTrue(text(selector), text(selector).contains("no selector engine"));
            });
        } finally {
            lockEngine.start();
            selectorEngine.start();
        }
        await().atMost(SETTLE).untilAsserted(() -> {
            assertEquals(Result.Status.OK, result("rouse-lock").getStatus());
            assertEquals(Result.Status.OK, result("rouse-selector").getStatus());
        });
    }

    /** Runs the checks with {@code tag} through Felix HC's executor, bypassing its result cache. */
    private List<HealthCheckExecutionResult> run(String tag) {
        return executor.execute(
                HealthCheckSelector.tags(tag), new HealthCheckExecutionOptions().setForceInstantExecution(true));
    }

    /** The result of the one check tagged {@code tag}. */
    private Result result(String tag) {
        List<HealthCheckExecutionResult> results = run(tag);
        assertEquals("checks tagged " + tag, 1, results.size());
        return results.get(0).getHealthCheckResult();
    }

    private static String text(Result result) {
        StringBuilder out = new StringBuilder(result.getStatus().toString());
        for (ResultLog.Entry entry : result) {
            out.append(" | ").append(entry.getStatus()).append(' ').append(entry.getMessage());
        }
        return out.toString();
    }

    private void configure(String pid, Object... keysAndValues) throws Exception {
        Dictionary<String, Object> properties = new Hashtable<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        configAdmin.getConfiguration(pid, "?").update(properties);
    }

    /** Parked in the lock: `adaptive` waiters park with a timeout (their re-check), so WAITING or TIMED_WAITING. */
    private static boolean parked(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }
}
