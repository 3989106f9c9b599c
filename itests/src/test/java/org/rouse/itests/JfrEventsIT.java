package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.bootDelegationPackage;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.inject.Inject;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;

/** JFR events from the API bundle in real Felix: jdk.jfr comes from the system bundle, and a contended lock records. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class JfrEventsIT extends RouseTestSupport {

    @Inject
    LockService locks;

    /**
     * On JDK 17 an instrumented event class links to a handler class JFR generates in jdk.jfr.internal.handlers, a
     * package no module exports: the bundle can load it only through boot delegation (the runtime and Karaf need the
     * same line; docs/observability.md).
     */
    @Override
    @Configuration
    public Option[] config() {
        return new Option[] {RouseOptions.all(), bootDelegationPackage("jdk.jfr.internal.handlers")};
    }

    @Test(timeout = 60_000)
    public void theApiBundleGetsJdkJfrFromTheSystemBundleAndARealContendedLockIsRecorded() throws Exception {
        BundleWiring wiring = bundle("org.rouse.api").adapt(BundleWiring.class);
        List<BundleWire> jfr = wiring.getRequiredWires("osgi.wiring.package").stream()
                .filter(w -> "jdk.jfr".equals(w.getCapability().getAttributes().get("osgi.wiring.package")))
                .toList();
        assertEquals("the optional import of jdk.jfr is wired", 1, jfr.size());
        assertEquals(0L, jfr.get(0).getProvider().getBundle().getBundleId());

        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable("org.rouse.LockContended").with("waitThreshold", "20 ms");
            stream.onEvent("org.rouse.LockContended", events::add);
            stream.startAsync();

            SwappableLock lock = locks.lock("jfr-it");
            CountDownLatch acquired = new CountDownLatch(1);
            Thread waiter = new Thread(
                    () -> {
                        lock.lock();
                        lock.unlock();
                        acquired.countDown();
                    },
                    "jfr-it-waiter");
            lock.lock();
            try {
                waiter.start();
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> waiter.getState() == Thread.State.WAITING
                                || waiter.getState() == Thread.State.TIMED_WAITING);
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(60); // the holder works on
                for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            } finally {
                lock.unlock();
            }
            assertTrue(acquired.await(10, TimeUnit.SECONDS));

            RecordedEvent event = await().atMost(Duration.ofSeconds(20))
                    .until(
                            () -> events.stream()
                                    .filter(e -> "jfr-it".equals(e.getString("lock")))
                                    .findFirst()
                                    .orElse(null),
                            e -> e != null);
            assertEquals(lock.strategy(), event.getString("strategy"));
            assertTrue(event.getDuration("wait").toMillis() >= 60);
        }
    }
}
