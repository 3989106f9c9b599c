package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Dictionary;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import javax.inject.Inject;
import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Descriptor;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;

/**
 * The {@code rouse} shell commands through a real Gogo {@link CommandProcessor} session (output captured from the
 * session's stream, as {@code bin/client} or an ssh exec would read it) and the services' MXBeans in the platform MBean
 * server, with the example consumers running. The MXBeans leaving with their bundle: {@link JmxIT}.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class OperationsIT extends RouseTestSupport {

    private static final String LOCK_PID = "org.rouse.lock";

    @Inject
    CommandProcessor processor;

    @Inject
    ConfigurationAdmin configAdmin;

    @Inject
    TimerService timers;

    @Inject
    LockService locks;

    @After
    public void deleteLockConfiguration() throws Exception {
        Configuration configuration = configAdmin.getConfiguration(LOCK_PID, "?");
        if (configuration.getProperties() != null) {
            configuration.delete();
        }
    }

    /** What a command wrote to its session's output (not its return value, which only a console prints). */
    private String run(String command) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (CommandSession session = processor.createSession(new ByteArrayInputStream(new byte[0]), out, err)) {
            Object returned = session.execute(command);
            assertEquals(command + " returns nothing: it writes its report", null, returned);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The exception a command fails with. */
    private Exception failure(String command) {
        try {
            run(command);
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError(command + " did not fail");
    }

    @Test(timeout = 60_000)
    public void theStatisticsViewsWriteToTheSession() throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(() -> run("rouse:timers").contains("org.rouse.examples.scripts"));
        String timerReport = run("rouse:timers");
        assertTrue(timerReport, timerReport.startsWith("engine wheel, dispatcher wakeups "));

        String selectorReport = run("rouse:selector");
        assertTrue(selectorReport, selectorReport.startsWith("engine nio-"));
        assertTrue(selectorReport, selectorReport.contains("view org.rouse.examples.resp"));

        String lockReport = run("rouse:locks 3");
        assertTrue(lockReport, lockReport.startsWith("engine strategies, strategies "));
        assertTrue("header, titles and at most 3 locks: " + lockReport, lockReport.split("\\R").length <= 5);
        String contended = run("rouse:contended 0");
        assertEquals(contended, 1, contended.split("\\R").length);
    }

    @Test(timeout = 60_000)
    public void lateAndRunningNameTheOwnerOfAStuckHandler() throws Exception {
        TimerOwner owner = timers.owner("operations-it-stuck");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            owner.schedule(Duration.ZERO, e -> {
                started.countDown();
                release.await(30, TimeUnit.SECONDS);
            });
            assertTrue(started.await(20, TimeUnit.SECONDS));
            String running = run("rouse:running 5");
            assertTrue(running, running.contains("operations-it-stuck"));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> run("rouse:late 100000").contains("operations-it-stuck"));
            String late = run("rouse:late");
            assertTrue(late, late.contains("org.rouse.examples.scripts")); // 711 script owners run every 50 ms
        } finally {
            release.countDown();
            owner.close();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> !run("rouse:running").contains("operations-it-stuck"));
    }

    @Test(timeout = 60_000)
    public void connectionsArePerConsumingBundle() throws Exception {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> run("rouse:connections")
                        .matches("(?s).*org\\.rouse\\.examples\\.resp\\[\\d+\\]\\s+\\d+\\s+1\\s+0.*"));
        String listed = run("rouse:connections org.rouse.examples.resp");
        assertTrue(listed, listed.contains("listening"));
    }

    @Test(timeout = 60_000)
    public void aResetZeroesTheCountsOfItsService() throws Exception {
        assertEquals("timer statistics reset\n", run("rouse:timers reset"));
        assertEquals("selector statistics reset\n", run("rouse:selector reset"));
        assertEquals("lock statistics reset\n", run("rouse:locks reset"));
        SwappableLock lock = locks.lock("operations-it-reset");
        lock.lock();
        lock.unlock();
        String report = run("rouse:locks 100000");
        assertTrue(report, report.matches("(?s).*\\noperations-it-reset\\s+\\S+\\s+1\\s+0\\s.*"));
    }

    @Test(timeout = 60_000)
    public void badArgumentsFailWithAUsageMessageNotACoercionError() {
        Exception top = failure("rouse:locks top");
        assertEquals(IllegalArgumentException.class, top.getClass());
        assertTrue(top.getMessage(), top.getMessage().contains("'top'"));
        assertTrue(top.getMessage(), top.getMessage().contains("usage: rouse:locks [n | reset]"));
        Exception late = failure("rouse:late -3");
        assertTrue(late.getMessage(), late.getMessage().contains("usage: rouse:late [n]"));
        Exception timers = failure("rouse:timers now");
        assertTrue(timers.getMessage(), timers.getMessage().contains("usage: rouse:timers [reset]"));
        Exception strategy = failure("rouse:strategy bogus");
        assertTrue(strategy.getMessage(), strategy.getMessage().contains("'bogus'"));
        assertTrue(strategy.getMessage(), strategy.getMessage().contains("adaptive, fair, jdk, spin-yield"));
    }

    @Test(timeout = 60_000)
    public void everyFunctionAndParameterHasADescriptor() throws Exception {
        for (String type : new String[] {"TimerCommands", "SelectorCommands", "LockCommands"}) {
            ServiceReference<?>[] references = context.getServiceReferences(
                    (String) null, "(&(osgi.command.scope=rouse)(objectClass=*." + type + "))");
            assertNotNull(type + " is registered", references);
            Object commands = context.getService(references[0]);
            try {
                String[] functions = (String[]) references[0].getProperty("osgi.command.function");
                for (String function : functions) {
                    boolean found = false;
                    for (var method : commands.getClass().getMethods()) {
                        if (!method.getName().equals(function)) {
                            continue;
                        }
                        found = true;
                        assertNotNull(method + " has help", method.getAnnotation(Descriptor.class));
                        for (var parameter : method.getParameters()) {
                            assertNotNull(
                                    method + " " + parameter + " has help", parameter.getAnnotation(Descriptor.class));
                        }
                    }
                    assertTrue(type + " offers " + function, found);
                }
            } finally {
                context.ungetService(references[0]);
            }
        }
    }

    @Test(timeout = 60_000)
    public void strategyChangesGoThroughConfigAdmin() throws Exception {
        SwappableLock one = locks.lock("operations-it-one");
        SwappableLock other = locks.lock("operations-it-other");

        String set = run("rouse:strategy fair");
        assertTrue(set, set.startsWith("org.rouse.lock: strategy = fair (was "));
        Dictionary<String, Object> properties =
                configAdmin.getConfiguration(LOCK_PID, "?").getProperties();
        assertEquals("fair", properties.get("strategy"));
        await().atMost(Duration.ofSeconds(20)).until(() -> "fair".equals(other.strategy()));

        String perLock = run("rouse:strategy operations-it-one jdk");
        assertTrue(perLock, perLock.startsWith("org.rouse.lock: strategy.patterns starts with operations-it-one=jdk"));
        await().atMost(Duration.ofSeconds(20)).until(() -> "jdk".equals(one.strategy()));
        assertEquals("fair", other.strategy());
        assertArrayEquals(new String[] {"operations-it-one=jdk"}, (String[])
                configAdmin.getConfiguration(LOCK_PID, "?").getProperties().get("strategy.patterns"));

        String shown = run("rouse:strategy");
        assertTrue(
                shown, shown.startsWith("default strategy fair, patterns [operations-it-one=jdk]; engine strategies"));

        Lock held = one;
        held.lock();
        held.unlock();
    }
}
