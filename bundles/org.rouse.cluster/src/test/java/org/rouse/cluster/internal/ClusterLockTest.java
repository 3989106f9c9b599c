package org.rouse.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.FencedLock;
import org.rouse.lock.FencedReadWriteLock;

/** Cluster locks of two nodes (two Curator clients in one JVM) against one real ZooKeeper server. */
@Timeout(60)
class ClusterLockTest {

    private TestingServer server;
    private ClusterNode a;
    private ClusterNode b;

    @BeforeEach
    void start() throws Exception {
        server = ZkTesting.server();
        a = ZkTesting.node(server.getConnectString());
        b = ZkTesting.node(server.getConnectString());
    }

    @AfterEach
    void stop() throws Exception {
        a.close();
        b.close();
        server.close();
    }

    @Test
    void oneHolderAcrossNodesAndTokensGrowWithEveryGrant() throws Exception {
        FencedLock onA = a.locks().lock("cluster.billing");
        FencedLock onB = b.locks().lock("cluster.billing");
        onA.lock();
        long first = onA.fencingToken();
        assertTrue(onA.isValid());
        onA.lock(); // reentrant: same hold, same token
        assertEquals(first, onA.fencingToken());
        assertEquals(2, onA.holdCount());
        assertFalse(CompletableFuture.supplyAsync(onB::tryLock).get(20, TimeUnit.SECONDS), "B while A holds");
        onA.unlock();
        onA.unlock();
        CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> {
            onB.lock();
            try {
                return onB.fencingToken();
            } finally {
                onB.unlock();
            }
        });
        assertTrue(second.get(20, TimeUnit.SECONDS) > first, "a later grant has a larger token");
        onA.lock();
        try {
            assertTrue(onA.fencingToken() > second.get(), "and the next one again");
        } finally {
            onA.unlock();
        }
        assertThrows(IllegalMonitorStateException.class, onA::unlock);
        assertThrows(IllegalMonitorStateException.class, onA::fencingToken);
        assertThrows(UnsupportedOperationException.class, onA::newCondition);
    }

    @Test
    void everyNodeRouseCreatesCarriesTheDigestAcl() throws Exception {
        FencedLock lock = a.locks().lock("cluster.acl");
        lock.lock();
        try {
            CuratorFramework zk = a.client();
            String parent = "/locks/cluster.acl";
            List<String> children = zk.getChildren().forPath(parent);
            assertEquals(1, children.size());
            for (String path : List.of("/locks", parent, parent + "/" + children.get(0))) {
                List<ACL> acl = zk.getACL().forPath(path);
                assertEquals(1, acl.size(), path + " " + acl);
                assertEquals("digest", acl.get(0).getId().getScheme(), path + " " + acl);
                assertTrue(acl.get(0).getId().getId().startsWith("rouse:"), path + " " + acl);
            }
            // a client without the credentials can neither read nor remove the holder's node
            try (CuratorFramework stranger =
                    CuratorFrameworkFactory.newClient(server.getConnectString(), 5_000, 5_000, new RetryOneTime(10))) {
                stranger.start();
                assertTrue(stranger.blockUntilConnected(20, TimeUnit.SECONDS));
                String node = "/rouse" + parent + "/" + children.get(0);
                assertThrows(
                        KeeperException.NoAuthException.class,
                        () -> stranger.getData().forPath(node));
                assertThrows(
                        KeeperException.NoAuthException.class,
                        () -> stranger.delete().forPath(node));
                assertThrows(
                        KeeperException.NoAuthException.class,
                        () -> stranger.setData().forPath("/rouse", "x".getBytes(StandardCharsets.UTF_8)));
            }
        } finally {
            lock.unlock();
        }
    }

    @Test
    void anExpiredSessionInvalidatesTheHoldAndTheStaleHolderIsFenced() throws Exception {
        ZkTesting.FencedStore store = new ZkTesting.FencedStore();
        FencedLock onA = a.locks().lock("cluster.fenced");
        FencedLock onB = b.locks().lock("cluster.fenced");
        CountDownLatch lost = new CountDownLatch(1);
        AtomicLong lostToken = new AtomicLong();
        onA.addLossListener((lock, holder, token) -> {
            lostToken.set(token);
            lost.countDown();
        });
        onA.lock();
        long staleToken = onA.fencingToken();
        assertTrue(store.write(staleToken));

        KillSession.kill(a.client().getZookeeperClient().getZooKeeper());
        assertTrue(lost.await(20, TimeUnit.SECONDS), "the loss listener fires");
        assertEquals(staleToken, lostToken.get());
        assertFalse(onA.isValid(), "A's hold is invalid once its session is lost");
        assertTrue(onA.isHeldByCurrentThread(), "A still has to unlock");

        // B is granted once the server expires A's session, with a larger token, and writes
        long newToken = CompletableFuture.supplyAsync(() -> {
                    onB.lock();
                    try {
                        assertTrue(onB.isValid());
                        assertTrue(store.write(onB.fencingToken()));
                        return onB.fencingToken();
                    } finally {
                        onB.unlock();
                    }
                })
                .get(30, TimeUnit.SECONDS);
        assertTrue(newToken > staleToken);
        assertFalse(store.write(staleToken), "the stale holder's write is rejected");
        assertEquals(1, store.rejected());
        onA.unlock(); // the node went with the session: nothing to delete, no exception
        assertFalse(onA.isHeldByCurrentThread());

        // A's new session gets valid holds again
        assertTrue(a.awaitConnected(20_000), "A reconnected");
        onA.lock();
        try {
            assertTrue(onA.isValid());
            assertTrue(onA.fencingToken() > newToken);
        } finally {
            onA.unlock();
        }
    }

    @Test
    void readWriteLockWritersExcludeAndTokensOrderThem() throws Exception {
        FencedReadWriteLock onA = a.locks().readWriteLock("cluster.routes");
        FencedReadWriteLock onB = b.locks().readWriteLock("cluster.routes");
        onA.readLock().lock();
        long read = onA.readLock().fencingToken();
        assertTrue(
                CompletableFuture.supplyAsync(() -> {
                            boolean got = onB.readLock().tryLock();
                            if (got) {
                                onB.readLock().unlock();
                            }
                            return got;
                        })
                        .get(20, TimeUnit.SECONDS),
                "readers share");
        assertFalse(
                CompletableFuture.supplyAsync(() -> onB.writeLock().tryLock()).get(20, TimeUnit.SECONDS),
                "a writer waits for readers");
        onA.readLock().unlock();
        long write = CompletableFuture.supplyAsync(() -> {
                    onB.writeLock().lock();
                    try {
                        assertEquals(1, onB.writeHoldCount());
                        return onB.writeLock().fencingToken();
                    } finally {
                        onB.writeLock().unlock();
                    }
                })
                .get(20, TimeUnit.SECONDS);
        assertTrue(write > read);
        onA.readLock().lock();
        try {
            assertTrue(onA.readLock().fencingToken() > write, "a reader after the writer");
        } finally {
            onA.readLock().unlock();
        }
    }

    @Test
    void aClosedProviderInvalidatesHoldsAndRefusesNewOnes() throws Exception {
        FencedLock lock = a.locks().lock("cluster.closing");
        CountDownLatch lost = new CountDownLatch(1);
        lock.addLossListener((l, holder, token) -> lost.countDown());
        lock.lock();
        a.locks().close();
        assertTrue(lost.await(10, TimeUnit.SECONDS));
        assertFalse(lock.isValid());
        lock.unlock();
        assertThrows(IllegalStateException.class, lock::lock);
        assertThrows(IllegalArgumentException.class, () -> b.locks().lock("local-name"));
        FencedLock onB = b.locks().lock("cluster.closing");
        assertTrue(onB.tryLock(10, TimeUnit.SECONDS), "A's unlock gave the node back");
        onB.unlock();
    }
}
