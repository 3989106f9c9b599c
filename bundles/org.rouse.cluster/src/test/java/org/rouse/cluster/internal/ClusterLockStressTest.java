package org.rouse.cluster.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.FencedLock;

/**
 * Two nodes, two threads each, hammer one cluster lock on a three-server ensemble and write through a fenced store,
 * while the server node A is connected to is killed and, later, node B's session expires.
 */
class ClusterLockStressTest {

    @Test
    @Timeout(120)
    void noTwoValidHoldersAndNoStaleWriteThroughServerLossAndSessionExpiry() throws Exception {
        try (TestingCluster cluster = new TestingCluster(ZkTesting.spec(1), ZkTesting.spec(2), ZkTesting.spec(3))) {
            cluster.start();
            ClusterNode a = ZkTesting.node(cluster.getConnectString());
            ClusterNode b = ZkTesting.node(cluster.getConnectString());
            ZkTesting.FencedStore store = new ZkTesting.FencedStore();
            AtomicInteger validHolders = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);
            AtomicInteger tokenRegressions = new AtomicInteger();
            LongAdder validGrants = new LongAdder();
            LongAdder rejectedValidWrites = new LongAdder();
            LongAdder invalidHolds = new LongAdder();
            LongAdder staleAccepted = new LongAdder();
            AtomicInteger lossesA = new AtomicInteger();
            AtomicInteger lossesB = new AtomicInteger();
            FencedLock onA = a.locks().lock("cluster.hammer");
            FencedLock onB = b.locks().lock("cluster.hammer");
            onA.addLossListener((lock, holder, token) -> lossesA.incrementAndGet());
            onB.addLossListener((lock, holder, token) -> lossesB.incrementAndGet());
            AtomicInteger stop = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (FencedLock lock : List.of(onA, onA, onB, onB)) {
                Thread t = new Thread(() -> {
                    try {
                        while (stop.get() == 0) {
                            if (!lock.tryLock(200, TimeUnit.MILLISECONDS)) {
                                continue;
                            }
                            try {
                                long token = lock.fencingToken();
                                if (lock.isValid()) {
                                    if (validHolders.incrementAndGet() > 1) {
                                        overlaps.incrementAndGet();
                                    }
                                    if (token <= lastToken.getAndSet(token)) {
                                        tokenRegressions.incrementAndGet();
                                    }
                                    validGrants.increment();
                                    if (!store.write(token)) {
                                        rejectedValidWrites.increment();
                                    }
                                    validHolders.decrementAndGet();
                                } else {
                                    // a hold lost during the grant: its write must not win over a later holder's
                                    invalidHolds.increment();
                                    if (token < lastToken.get() && store.write(token)) {
                                        staleAccepted.increment();
                                    }
                                }
                            } finally {
                                lock.unlock();
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                t.start();
                threads.add(t);
            }
            try {
                awaitGrants(validGrants, 50);

                // kill the server A is connected to: A is suspended (its holds invalid) and moves to another server
                InstanceSpec aServer = cluster.findConnectionInstance(
                        a.client().getZookeeperClient().getZooKeeper());
                assertTrue(cluster.killServer(aServer));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> a.client().getZookeeperClient().isConnected());
                awaitGrants(validGrants, 50);
                assertTrue(cluster.restartServer(aServer));

                // expire B's session: B's holds invalid at once, A is granted once the server expires it
                KillSession.kill(b.client().getZookeeperClient().getZooKeeper());
                await().atMost(Duration.ofSeconds(30)).until(() -> lossesB.get() > 0 || invalidHolds.sum() > 0);
                awaitGrants(validGrants, 50);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> b.client().getZookeeperClient().isConnected());
                awaitGrants(validGrants, 50);
            } finally {
                stop.set(1);
                for (Thread t : threads) {
                    t.join(TimeUnit.SECONDS.toMillis(30));
                }
                a.close();
                b.close();
            }
            assertEquals(List.of(), failures);
            assertEquals(0, overlaps.get(), "moments with two valid holders");
            assertEquals(0, tokenRegressions.get(), "grants whose token did not grow");
            assertEquals(0, rejectedValidWrites.sum(), "a valid holder's write rejected");
            assertEquals(0, staleAccepted.sum(), "stale writes accepted");
            assertTrue(validGrants.sum() >= 200, "grants: " + validGrants.sum());
            assertTrue(store.accepted() >= validGrants.sum());
        }
    }

    private static void awaitGrants(LongAdder grants, int more) {
        long target = grants.sum() + more;
        await().atMost(Duration.ofSeconds(40)).until(() -> grants.sum() >= target);
    }
}
