package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.time.Duration;
import java.util.Hashtable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.lock.FencedLock;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.spi.ClusterLockProvider;

/**
 * The cluster bundle in real Felix against a real ZooKeeper server (curator-test's TestingServer, started on the
 * driver side): it resolves and starts, registers nothing without configuration, and once configured the lock front
 * routes the configured names to ZooKeeper locks with fencing tokens; other names stay local.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ClusterIT extends RouseTestSupport {

    private static final String ZK_PROPERTY = "rouse.it.zookeeper";

    @Inject
    LockService locks;

    @Inject
    ConfigurationAdmin configAdmin;

    @Override
    @Configuration
    public Option[] config() {
        String connect = ItZooKeeper.connectString();
        return new Option[] {
            RouseOptions.all(),
            org.ops4j.pax.exam.CoreOptions.bundle(
                            RouseOptions.jar("org.rouse.cluster").toURI().toString())
                    .startLevel(4),
            systemProperty(ZK_PROPERTY).value(connect)
        };
    }

    @Test(timeout = 90_000)
    public void aConfiguredClusterLockIsAZooKeeperLockWithFencingTokens() throws Exception {
        assertEquals(Bundle.ACTIVE, bundle("org.rouse.cluster").getState());
        assertNull("no configuration, no provider", context.getServiceReference(ClusterLockProvider.class));
        assertFalse(locks.lock("cluster.it") instanceof FencedLock);

        org.osgi.service.cm.Configuration configuration = configAdmin.getConfiguration("org.rouse.cluster", "?");
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("connect.string", System.getProperty(ZK_PROPERTY));
        properties.put("acl.digest", "rouse:it-secret");
        properties.put("lock.patterns", new String[] {"cluster.*"});
        configuration.update(properties);
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> context.getServiceReference(ClusterLockProvider.class) != null);
            SwappableLock lock = locks.lock("cluster.it");
            assertTrue(lock.toString(), lock instanceof FencedLock);
            FencedLock fenced = (FencedLock) lock;
            assertEquals("cluster", fenced.strategy());
            assertFalse("other names stay local", locks.lock("local.it") instanceof FencedLock);

            fenced.lock();
            long first;
            try {
                first = fenced.fencingToken();
                assertTrue(fenced.isValid());
                assertTrue(first > 0);
                assertFalse(
                        "another thread waits for the ZooKeeper lock",
                        CompletableFuture.supplyAsync(fenced::tryLock).get(30, TimeUnit.SECONDS));
            } finally {
                fenced.unlock();
            }
            long second = CompletableFuture.supplyAsync(() -> {
                        fenced.lock();
                        try {
                            return fenced.fencingToken();
                        } finally {
                            fenced.unlock();
                        }
                    })
                    .get(30, TimeUnit.SECONDS);
            assertTrue(second > first);
        } finally {
            configuration.delete();
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> context.getServiceReference(ClusterLockProvider.class) == null);
        assertNotNull(locks.lock("cluster.it"));
        assertFalse("without the provider the name is local again", locks.lock("cluster.it") instanceof FencedLock);
    }
}
