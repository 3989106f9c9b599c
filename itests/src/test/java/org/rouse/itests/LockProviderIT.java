package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Set;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.SwappableReadWriteLock;

/**
 * The lock provider in Felix: adaptive by default for plain locks, jdk for read-write locks unless the engine's
 * {@code adaptive.read.write} is on, strategies surviving a provider update, the Gogo command.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class LockProviderIT extends RouseTestSupport {

    private static final Set<String> STRATEGIES = Set.of("adaptive", "fair", "jdk", "spin-yield");

    @Inject
    LockService locks;

    @Inject
    ConfigurationAdmin configAdmin;

    @Test
    public void strategiesSurviveAProviderUpdateUnderContentionAndTheDefaultIsAdaptive() throws Exception {
        assertEquals(STRATEGIES, locks.strategies());
        SwappableLock lock = locks.lock("provider-it");
        assertEquals("adaptive", lock.strategy());
        LockHammer hammer = LockHammer.start(lock, 16, "lock-provider-it");
        try {
            Bundle provider = bundle("org.rouse.lock");
            long before = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > before + 1000);
            updateFromJar(provider);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> locks.strategies().equals(STRATEGIES));
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.strategy().equals("adaptive"));
            long updated = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > updated + 1000);
        } finally {
            hammer.stop();
        }
        assertEquals("two threads held the lock at once", 0, hammer.violations());
        assertTrue(
                "the swaps to the fallback and back were counted",
                lock.statistics().swaps() >= 2);
        assertEquals(hammer.acquisitions(), lock.statistics().acquisitions());
    }

    @Test
    public void readWriteLocksSurviveAProviderUpdateUnderContentionAndDefaultToJdk() throws Exception {
        SwappableReadWriteLock lock = locks.readWriteLock("provider-rw-it");
        assertEquals("jdk", lock.strategy());
        SwappableReadWriteLock stripe =
                locks.readWriteStripes("provider-rw-stripes", 4).forKey("k");
        stripe.readLock().lock(); // a read hold taken before the update, released after it
        LockHammer hammer = LockHammer.startReadWrite(lock, 16, "rw-provider-it");
        try {
            Bundle provider = bundle("org.rouse.lock");
            long before = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > before + 1000);
            updateFromJar(provider);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> locks.strategies().equals(STRATEGIES));
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.strategy().equals("jdk"));
            long updated = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > updated + 1000);
            assertTrue("a write got past the read hold from before the update", !writeElsewhere(stripe));
        } finally {
            hammer.stop();
            stripe.readLock().unlock();
        }
        assertEquals("a writer held the lock together with another thread", 0, hammer.violations());
        assertTrue(
                "the swaps to the fallback and back were counted",
                lock.statistics().swaps() >= 2);
        assertEquals(hammer.acquisitions(), lock.statistics().acquisitions());
        assertEquals("the last reader completed the stripe's swap", "jdk", stripe.strategy());
        assertTrue("the stripe is free again", writeElsewhere(stripe));
    }

    @Test
    public void theEnginePropertyAdaptiveReadWriteMovesLiveReadWriteLocks() throws Exception {
        SwappableReadWriteLock lock = locks.readWriteLock("adaptive-rw-it");
        assertEquals("jdk", lock.strategy());
        LockHammer hammer = LockHammer.startReadWrite(lock, 8, "adaptive-rw-it");
        Configuration engine = configAdmin.getConfiguration("org.rouse.lock.engine", "?");
        try {
            Dictionary<String, Object> properties = new Hashtable<>();
            properties.put("adaptive.read.write", Boolean.TRUE);
            engine.update(properties);
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.strategy().equals("adaptive"));
            assertEquals("adaptive", locks.readWriteLock("adaptive-rw-it-2").strategy());
            assertEquals(
                    "plain locks keep their strategy",
                    "adaptive",
                    locks.lock("adaptive-rw-plain").strategy());
            long on = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > on + 1000);
            engine.delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.strategy().equals("jdk"));
            long off = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > off + 1000);
        } finally {
            hammer.stop();
            if (configAdmin.listConfigurations("(service.pid=org.rouse.lock.engine)") != null) {
                engine.delete();
            }
        }
        assertEquals("a writer held the lock together with another thread", 0, hammer.violations());
        assertTrue("moved to adaptive and back", lock.statistics().swaps() >= 2);
        assertEquals(hammer.acquisitions(), lock.statistics().acquisitions());
    }

    /** Whether another thread can take {@code lock}'s write lock now (it releases it again). */
    private static boolean writeElsewhere(SwappableReadWriteLock lock) throws Exception {
        boolean[] got = {false};
        Thread t = new Thread(() -> {
            if (lock.writeLock().tryLock()) {
                got[0] = true;
                lock.writeLock().unlock();
            }
        });
        t.start();
        t.join(10_000);
        return got[0];
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
            String output =
                    (String) command.getClass().getMethod("report", int.class).invoke(command, 10);
            assertTrue(output, output.startsWith("engine strategies"));
            assertTrue(output, output.contains("command-it"));
        } finally {
            context.ungetService(refs[0]);
        }
    }
}
