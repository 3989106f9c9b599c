package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.itests.consumer.TimerConsumerActivator;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;

/**
 * The timer service's hot swap under load: 10,000 one-shots over 2 s and 100 periodic timers while the provider
 * bundle is updated, then replaced (uninstalled, installed again), and the engine configuration changed; and a
 * consumer bundle that stops leaves no timer behind and no reference to its class loader.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class TimerHotSwapIT extends RouseTestSupport {

    private static final Pattern LAST_PAUSE = Pattern.compile("last pause ([0-9.]+) ms");

    @Inject
    TimerService timers;

    @Inject
    ConfigurationAdmin configAdmin;

    @Test
    public void oneShotsFireOnceAndPeriodicTimersGoOnThroughUpdateReplaceAndReconfiguration() throws Exception {
        int count = 10_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        AtomicLongArray lateness = new AtomicLongArray(count);
        CountDownLatch allFired = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            TimerOwner owner = timers.owner("hot-swap-" + (i % 200));
            owner.schedule(Duration.ofNanos(TimeUnit.SECONDS.toNanos(2) * i / count), e -> {
                lateness.set(index, e.lateness().toNanos());
                if (runs.incrementAndGet(index) == 1) {
                    allFired.countDown();
                }
            });
        }
        AtomicLong periodicRuns = new AtomicLong();
        for (int i = 0; i < 100; i++) {
            timers.owner("periodic-" + i)
                    .scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(20), e -> periodicRuns.incrementAndGet());
        }

        StringBuilder pauses = new StringBuilder();
        Bundle provider = bundle("org.rouse.timer");
        updateFromJar(provider);
        awaitEngine();
        pauses.append("update ").append(lastPause()).append(" ms");
        assertPeriodicTimersFire(periodicRuns);

        provider = bundle("org.rouse.timer");
        provider.uninstall();
        refresh(provider);
        Bundle replacement = context.installBundle(
                RouseOptions.jar("org.rouse.timer").toURI().toString());
        replacement.start();
        awaitEngine();
        pauses.append(", replace ").append(lastPause()).append(" ms");
        assertPeriodicTimersFire(periodicRuns);

        Configuration engineConfig = configAdmin.getConfiguration("org.rouse.timer.engine", "?");
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("worker.threads", 3);
        properties.put("tick.micros", 64L);
        engineConfig.update(properties);
        assertPeriodicTimersFire(periodicRuns);

        assertTrue("not fired: " + allFired.getCount(), allFired.await(30, TimeUnit.SECONDS));
        long maxLateness = 0;
        for (int i = 0; i < count; i++) {
            assertEquals("one-shot " + i + " runs", 1, runs.get(i));
            maxLateness = Math.max(maxLateness, lateness.get(i));
        }
        assertPeriodicTimersFire(periodicRuns);
        System.out.printf(
                "TimerHotSwapIT: %d one-shots fired once each; swap pauses: %s; max one-shot lateness %.3f ms%n",
                count, pauses, maxLateness / 1e6);
        engineConfig.delete();
        for (int i = 0; i < 100; i++) {
            timers.owner("periodic-" + i).close();
        }
    }

    @Test
    public void aStoppedConsumerBundleLeavesNoTimersAndItsClassLoaderIsCollectable() throws Exception {
        Bundle consumer = context.installBundle("rouse-timer-consumer", consumerBundle());
        consumer.start();
        String name = consumer.getSymbolicName();
        await().atMost(Duration.ofSeconds(20)).until(() -> pendingOf(name) >= TimerConsumerActivator.FAR + 1);
        WeakReference<ClassLoader> loader =
                new WeakReference<>(consumer.adapt(BundleWiring.class).getClassLoader());

        consumer.stop();
        assertFalse(
                "the consumer's view is gone from rouse:timers", timersReport().contains(name));
        consumer.uninstall();
        refresh(consumer);
        consumer = null;
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    System.gc();
                    return loader.get() == null;
                });
    }

    /**
     * A timer handler updates the timer provider bundle (a maintenance job): the framework deactivates the wheel
     * engine and the front swaps, on that handler's own worker. The update must neither wait out the engine's 10 s
     * grace for the handler that made it nor interrupt it, and other owners' timers go on in the new engine.
     */
    @Test
    public void aTimerHandlerThatUpdatesTheTimerProviderIsNeitherWaitedForNorInterrupted() throws Exception {
        AtomicLong periodicRuns = new AtomicLong();
        for (int i = 0; i < 20; i++) {
            timers.owner("self-update-periodic-" + i)
                    .scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(10), e -> periodicRuns.incrementAndGet());
        }
        Bundle provider = bundle("org.rouse.timer");
        AtomicLong updateNanos = new AtomicLong(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        timers.owner("self-update").schedule(Duration.ofMillis(10), e -> {
            long start = System.nanoTime();
            try (InputStream in = Files.newInputStream(
                    RouseOptions.jar(provider.getSymbolicName()).toPath())) {
                provider.update(in); // no refresh: waiting for one here would wait for this very handler
            } catch (Throwable t) {
                failure.set(t);
            }
            updateNanos.set(System.nanoTime() - start);
            interrupted.set(Thread.currentThread().isInterrupted());
            done.countDown();
        });
        try {
            assertTrue("the handler's update returned", done.await(30, TimeUnit.SECONDS));
            assertEquals(null, failure.get());
            assertTrue(
                    "the update waited for the handler that made it: " + updateNanos.get() + " ns",
                    updateNanos.get() < TimeUnit.SECONDS.toNanos(5));
            assertFalse("the update interrupted the handler that made it", interrupted.get());
            awaitEngine();
            assertPeriodicTimersFire(periodicRuns);
        } finally {
            refresh(bundle("org.rouse.timer"));
            awaitEngine();
        }
    }

    private void assertPeriodicTimersFire(AtomicLong periodicRuns) {
        long before = periodicRuns.get();
        await().atMost(Duration.ofSeconds(20)).until(() -> periodicRuns.get() > before + 200);
    }

    private void awaitEngine() {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "wheel".equals(timers.statistics().engine()));
    }

    /** The swap pause as the Gogo command prints it (the command is looked up by its service properties). */
    private String lastPause() throws Exception {
        Matcher matcher = LAST_PAUSE.matcher(timersReport());
        assertTrue(matcher.find());
        return matcher.group(1);
    }

    private String timersReport() throws Exception {
        ServiceReference<?>[] references = context.getServiceReferences(
                (String) null, "(&(osgi.command.scope=rouse)(osgi.command.function=timers))");
        assertNotNull("rouse:timers is registered", references);
        Object command = context.getService(references[0]);
        try {
            return (String) command.getClass().getMethod("report").invoke(command);
        } finally {
            context.ungetService(references[0]);
        }
    }

    private long pendingOf(String bundleName) throws Exception {
        for (String line : timersReport().split("\\R")) {
            String[] columns = line.trim().split("\\s+");
            if (columns[0].equals(bundleName) || columns[0].startsWith(bundleName + "[")) { // "name[bundle id]"
                return Long.parseLong(columns[1]);
            }
        }
        return -1;
    }

    /** A consumer bundle made now from {@link TimerConsumerActivator}'s class file. */
    private static InputStream consumerBundle() throws Exception {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", "org.rouse.itests.timer.consumer");
        main.putValue("Bundle-Version", "1.0.0");
        main.putValue("Bundle-Activator", TimerConsumerActivator.class.getName());
        main.putValue("Import-Package", "org.osgi.framework,org.rouse.timer");
        String classFile = TimerConsumerActivator.class.getName().replace('.', '/') + ".class";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest);
                InputStream in = TimerConsumerActivator.class.getClassLoader().getResourceAsStream(classFile)) {
            assertNotNull(classFile, in);
            jar.putNextEntry(new JarEntry(classFile));
            in.transferTo(jar);
            jar.closeEntry();
        }
        return new ByteArrayInputStream(bytes.toByteArray());
    }
}
