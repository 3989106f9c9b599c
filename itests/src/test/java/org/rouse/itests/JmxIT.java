package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import javax.inject.Inject;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;

/**
 * Each front's MXBean in the platform MBean server: its attributes carry the service's statistics, and it leaves when
 * the API bundle stops or is updated (no bean of a stopped revision stays behind). In a container of its own, because
 * it stops and updates the API bundle.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class JmxIT extends RouseTestSupport {

    @Inject
    LockService locks;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    public void eachServiceHasAnMXBeanThatLeavesWithItsBundle() throws Exception {
        ObjectName timer = new ObjectName("org.rouse:type=Timer");
        ObjectName selector = new ObjectName("org.rouse:type=Selector");
        ObjectName lock = new ObjectName("org.rouse:type=Lock");
        await().atMost(Duration.ofSeconds(20)).until(() -> ((Long) server.getAttribute(timer, "Fired")) > 0);
        assertEquals("wheel", server.getAttribute(timer, "Engine"));
        assertTrue((Long) server.getAttribute(timer, "LatenessCount") > 0);
        assertTrue((Double) server.getAttribute(timer, "LatenessP99Millis") >= 0);
        assertTrue((Integer) server.getAttribute(timer, "Owners") >= 711);
        assertTrue(((String) server.getAttribute(selector, "Engine")).startsWith("nio-"));
        assertTrue((Long) server.getAttribute(selector, "Registrations") >= 1);
        assertTrue((Long) server.getAttribute(selector, "SelectCycles") >= 0);
        assertEquals("strategies", server.getAttribute(lock, "Engine"));
        assertTrue(Arrays.asList((String[]) server.getAttribute(lock, "Strategies"))
                .contains("fair"));
        SwappableLock counted = locks.lock("operations-it-jmx");
        long before = (Long) server.getAttribute(lock, "Acquisitions");
        counted.lock();
        counted.unlock();
        assertTrue((Long) server.getAttribute(lock, "Acquisitions") > before);

        Bundle api = bundle("org.rouse.api");
        api.stop();
        try {
            Set<ObjectName> left = server.queryNames(new ObjectName("org.rouse:*"), null);
            assertTrue("no Rouse MBean after the API bundle stopped: " + left, left.isEmpty());
        } finally {
            api.start();
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.isRegistered(timer) && server.isRegistered(selector) && server.isRegistered(lock));

        try (java.io.InputStream in = java.nio.file.Files.newInputStream(
                RouseOptions.jar("org.rouse.api").toPath())) {
            api.update(in); // stops the old revision (its beans leave) and starts the new one; no refresh, which
            // would also restart this test's probe bundle
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        server.queryNames(new ObjectName("org.rouse:*"), null).size() == 3);
        await().atMost(Duration.ofSeconds(20)).until(() -> "wheel".equals(server.getAttribute(timer, "Engine")));
        try {
            server.getAttribute(timer, "NoSuchAttribute");
            fail("unknown attributes are refused");
        } catch (javax.management.AttributeNotFoundException expected) {
            assertFalse(expected.getMessage().isEmpty());
        }
    }
}
