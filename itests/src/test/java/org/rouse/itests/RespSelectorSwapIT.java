package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.selector.SelectorService;
import org.rouse.selector.spi.SelectorEngine;

/**
 * The selector's hot swap under load: 64 connections make back-to-back calls to the RESP example while the selector
 * provider bundle is updated, then replaced (uninstalled and installed anew), and its engine configuration changed.
 * No connection may close and no call may fail or be lost; the longest call of each phase is printed.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class RespSelectorSwapIT extends RouseTestSupport {

    private static final int CONNECTIONS = 64;
    private static final String PROVIDER = "org.rouse.selector";

    @Inject
    ConfigurationAdmin configAdmin;

    @Inject
    SelectorService selector;

    /** Per connection: calls answered. */
    private final AtomicLongArray calls = new AtomicLongArray(CONNECTIONS);
    /** Longest call (ns) since the current phase began; reset by each phase. */
    private final AtomicLongArray longest = new AtomicLongArray(CONNECTIONS);

    @Test
    public void sixtyFourConnectionsSurviveUpdateReplaceAndReconfiguration() throws Exception {
        int port = RespServerIT.listenOnFreePort(configAdmin);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(CONNECTIONS);
        for (int i = 0; i < CONNECTIONS; i++) {
            int index = i;
            Thread client = new Thread(
                    () -> {
                        try (RespClient resp = new RespClient(port)) {
                            String key = "swap:" + index;
                            long expected = 0;
                            while (running.get()) {
                                long start = System.nanoTime();
                                Object reply = resp.call("INCR", key);
                                long took = System.nanoTime() - start;
                                expected++;
                                if (!Long.valueOf(expected).equals(reply)) {
                                    throw new AssertionError("connection " + index + ": INCR gave " + reply
                                            + ", expected " + expected + " (a call lost or repeated)");
                                }
                                longest.accumulateAndGet(index, took, Math::max);
                                calls.incrementAndGet(index);
                            }
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        } finally {
                            done.countDown();
                        }
                    },
                    "resp-swap-client-" + i);
            client.setDaemon(true);
            client.start();
        }
        List<String> report = new ArrayList<>();
        try {
            phase("warm-up", () -> {}, failure, report);
            phase("update", () -> updateFromJar(bundle(PROVIDER)), failure, report);
            phase("replace", this::replaceProvider, failure, report);
            phase("reconfigure to 3 loops", () -> reconfigureEngine(3), failure, report);
            phase("reconfigure to 1 loop", () -> reconfigureEngine(1), failure, report);
        } finally {
            running.set(false);
            assertTrue("clients finished", done.await(30, TimeUnit.SECONDS));
        }
        System.out.println("RespSelectorSwapIT, " + CONNECTIONS + " connections, longest call per phase: "
                + String.join(", ", report));
        assertEquals("no call failed and no connection closed", null, failure.get());
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs {@code step} and waits until every connection made 20 more calls; records the longest call. */
    private void phase(String name, Step step, AtomicReference<Throwable> failure, List<String> report)
            throws Exception {
        for (int i = 0; i < CONNECTIONS; i++) {
            longest.set(i, 0);
        }
        long[] before = new long[CONNECTIONS];
        for (int i = 0; i < CONNECTIONS; i++) {
            before[i] = calls.get(i);
        }
        long start = System.nanoTime();
        step.run();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            if (failure.get() != null) {
                return true;
            }
            for (int i = 0; i < CONNECTIONS; i++) {
                if (calls.get(i) < before[i] + 20) {
                    return false;
                }
            }
            return true;
        });
        long max = 0;
        for (int i = 0; i < CONNECTIONS; i++) {
            max = Math.max(max, longest.get(i));
        }
        report.add(String.format("%s %.1f ms (phase %.0f ms)", name, max / 1e6, (System.nanoTime() - start) / 1e6));
        assertEquals("during " + name, null, failure.get());
    }

    /** Uninstalls the provider and installs it anew from its jar: a new bundle, class loader and engine. */
    private void replaceProvider() throws Exception {
        Bundle old = bundle(PROVIDER);
        old.uninstall();
        refresh(old);
        try (InputStream in = Files.newInputStream(RouseOptions.jar(PROVIDER).toPath())) {
            Bundle fresh = context.installBundle("rouse-swap:" + PROVIDER + ":replaced", in);
            fresh.start();
        }
    }

    /**
     * Changes the engine's pool sizes and number of loops, and waits until the engine DS re-created with them holds
     * every connection.
     */
    private void reconfigureEngine(int loops) throws Exception {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("pool.core.threads", 4);
        properties.put("pool.max.threads", 8);
        properties.put("loops", loops);
        configAdmin.getConfiguration("org.rouse.selector.engine", "?").update(properties);
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Map<String, Long> counters = activeEngineCounters();
            return counters.getOrDefault("loops", 0L) == loops
                    && counters.getOrDefault("channels", 0L) >= CONNECTIONS + 1;
        });
    }

    /** The counters of the selector engine service, or an empty map while there is none. */
    private Map<String, Long> activeEngineCounters() throws Exception {
        Collection<ServiceReference<SelectorEngine>> engines = context.getServiceReferences(SelectorEngine.class, null);
        for (ServiceReference<SelectorEngine> reference : engines) {
            SelectorEngine engine = context.getService(reference);
            try {
                if (engine != null) {
                    return engine.counters();
                }
            } finally {
                context.ungetService(reference);
            }
        }
        return Map.of();
    }
}
