package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;

/** The lock provider in Felix: adaptive by default, strategies surviving a provider update, the Gogo command. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class LockProviderIT extends RouseTestSupport {

    private static final Set<String> STRATEGIES = Set.of("adaptive", "fair", "jdk", "spin-yield");

    @Inject
    LockService locks;

    @Test
    public void strategiesSurviveAProviderUpdateUnderContentionAndTheDefaultIsAdaptive() throws Exception {
        assertEquals(STRATEGIES, locks.strategies());
        SwappableLock lock = locks.lock("provider-it");
        assertEquals("adaptive", lock.strategy());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicLong acquisitions = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            Thread thread = new Thread(
                    () -> {
                        while (running.get()) {
                            lock.lock();
                            try {
                                if (inside.incrementAndGet() != 1) {
                                    violations.incrementAndGet();
                                }
                                acquisitions.incrementAndGet();
                                inside.decrementAndGet();
                            } finally {
                                lock.unlock();
                            }
                        }
                    },
                    "lock-provider-it-" + i);
            thread.start();
            threads.add(thread);
        }
        try {
            Bundle provider = bundle("org.rouse.lock");
            long before = acquisitions.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> acquisitions.get() > before + 1000);
            updateFromJar(provider);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> locks.strategies().equals(STRATEGIES));
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.strategy().equals("adaptive"));
            long updated = acquisitions.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> acquisitions.get() > updated + 1000);
        } finally {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(10_000);
            }
        }
        assertEquals("two threads held the lock at once", 0, violations.get());
        assertTrue(
                "the swaps to the fallback and back were counted",
                lock.statistics().swaps() >= 2);
        assertEquals(acquisitions.get(), lock.statistics().acquisitions());
    }

    @Test
    public void theLocksCommandIsRegisteredForGogo() throws Exception {
        locks.lock("command-it").lock();
        // as Gogo finds commands: by properties, whatever the object class
        ServiceReference<?>[] refs = context.getServiceReferences(
                (String) null, "(&(osgi.command.scope=rouse)(osgi.command.function=locks))");
        assertEquals(1, refs == null ? 0 : refs.length);
        Object command = context.getService(refs[0]);
        try {
            String output = (String) command.getClass().getMethod("locks").invoke(command);
            assertTrue(output, output.startsWith("engine strategies"));
            assertTrue(output, output.contains("command-it"));
        } finally {
            context.ungetService(refs[0]);
        }
    }
}
