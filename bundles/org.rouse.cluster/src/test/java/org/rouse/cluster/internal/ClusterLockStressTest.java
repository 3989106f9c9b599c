package org.rouse.cluster.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.FencedLock;

/**
 * Two nodes, two threads each, hammer one cluster lock on a three-server ensemble and write through a fenced store,
 * through two faults, each confined to one node: the server node A is connected to is killed (A's connection is lost
 * and comes back within its session), then node B's session expires. Each fault finds a hold of the faulted node in
 * place (a witness thread keeps one across it), and the test checks that the fault happened as planned (the node's
 * Curator connection states) and that the lock reported exactly that hold lost.
 *
 * <p>Placement: A may connect only to the two followers and B only to the leader, so killing A's server leaves the
 * quorum and its leader standing (B sees nothing), and B's expiry touches no connection of A.
 */
class ClusterLockStressTest {

    private static final String LOCK = "cluster.hammer";
    /** Valid grants awaited before the first fault and after each: the hammering goes on through both. */
    private static final int GRANTS_PER_STRETCH = 70;

    @Test
    @Timeout(120)
    void noTwoValidHoldersAndNoStaleWriteThroughServerLossAndSessionExpiry() throws Exception {
        try (TestingCluster cluster = new TestingCluster(ZkTesting.spec(1), ZkTesting.spec(2), ZkTesting.spec(3))) {
            cluster.start();
            InstanceSpec leader = awaitLeader(cluster);
            String followers = cluster.getInstances().stream()
                    .filter(spec -> !spec.equals(leader))
                    .map(InstanceSpec::getConnectString)
                    .collect(Collectors.joining(","));
            ClusterNode a = ZkTesting.node(followers);
            ClusterNode b = ZkTesting.node(leader.getConnectString());
            States statesA = new States(a);
            States statesB = new States(b);
            ZkTesting.FencedStore store = new ZkTesting.FencedStore();
            AtomicInteger validHolders = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);
            AtomicInteger tokenRegressions = new AtomicInteger();
            LongAdder validGrants = new LongAdder();
            LongAdder rejectedValidWrites = new LongAdder();
            LongAdder staleAccepted = new LongAdder();
            /* Holds a hammer thread saw valid when granted and invalid before it let go; copy-on-write. */
            List<Loss> seenLost = new CopyOnWriteArrayList<>();
            FencedLock onA = a.locks().lock(LOCK);
            FencedLock onB = b.locks().lock(LOCK);
            List<Loss> lossesA = new CopyOnWriteArrayList<>();
            List<Loss> lossesB = new CopyOnWriteArrayList<>();
            onA.addLossListener((lock, holder, token) -> lossesA.add(new Loss(holder, token)));
            onB.addLossListener((lock, holder, token) -> lossesB.add(new Loss(holder, token)));
            AtomicInteger stop = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (FencedLock lock : List.of(onA, onA, onB, onB)) {
                Thread t = new Thread(
                        () -> {
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
                                            if (!lock.isValid()) {
                                                seenLost.add(new Loss(Thread.currentThread(), token));
                                            }
                                        } else {
                                            // a hold lost during the grant: its write must not win over a later
                                            // holder's
                                            seenLost.add(new Loss(Thread.currentThread(), token));
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
                        },
                        "hammer-" + threads.size());
                t.start();
                threads.add(t);
            }
            try {
                awaitGrants(validGrants, GRANTS_PER_STRETCH);

                // phase 1: A's server dies while a thread of A holds the lock. A's connection is SUSPENDED (every
                // hold of A invalid) and RECONNECTED to the other follower within its session, so the witness's node
                // survives and nobody else is granted meanwhile
                Witness witnessA = new Witness(onA, "witness-a", lastToken, tokenRegressions);
                int fromA = statesA.mark();
                int fromB = statesB.mark();
                int lostA = lossesA.size();
                int lostB = lossesB.size();
                long grantsBefore = validGrants.sum();
                InstanceSpec aServer = cluster.findConnectionInstance(
                        a.client().getZookeeperClient().getZooKeeper());
                assertNotEquals(leader, aServer, "A connects to followers only");
                assertTrue(cluster.killServer(aServer));
                statesA.awaitInOrder(fromA, ConnectionState.SUSPENDED, ConnectionState.RECONNECTED);
                assertFalse(statesA.since(fromA).contains(ConnectionState.LOST), "A's session survived");
                assertEquals(List.of(new Loss(witnessA.thread, witnessA.token)), since(lossesA, lostA));
                assertEquals(List.of(), since(lossesB, lostB), "B held nothing and lost nothing");
                assertEquals(List.of(), statesB.since(fromB), "B's connection (to the leader) was never disturbed");
                assertEquals(grantsBefore, validGrants.sum(), "granted to another while A's witness node lived");
                assertFalse(witnessA.releaseAndReport(store, false).validAtRelease, "A's witness hold is invalid");
                assertTrue(cluster.restartServer(aServer));
                awaitGrants(validGrants, GRANTS_PER_STRETCH);

                // phase 2: B's session expires while a thread of B holds the lock: LOST at once (the hold invalid),
                // then a new session; the server deletes the witness's node only when the old session times out, and
                // then another thread is granted with a larger token, so the witness's late write is rejected
                Witness witnessB = new Witness(onB, "witness-b", lastToken, tokenRegressions);
                fromA = statesA.mark();
                fromB = statesB.mark();
                lostA = lossesA.size();
                lostB = lossesB.size();
                KillSession.kill(b.client().getZookeeperClient().getZooKeeper());
                statesB.awaitInOrder(fromB, ConnectionState.LOST, ConnectionState.RECONNECTED);
                assertEquals(List.of(new Loss(witnessB.thread, witnessB.token)), since(lossesB, lostB));
                await().atMost(Duration.ofSeconds(30)).until(() -> store.highest() > witnessB.token);
                Witness releasedB = witnessB.releaseAndReport(store, true);
                assertFalse(releasedB.validAtRelease, "B's witness hold is invalid");
                assertFalse(releasedB.writeAccepted, "the store rejects the expired holder's write");
                assertEquals(List.of(), since(lossesA, lostA), "A held nothing and lost nothing");
                assertEquals(List.of(), statesA.since(fromA), "A's connection was never disturbed");
                awaitGrants(validGrants, GRANTS_PER_STRETCH);
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
            assertTrue(validGrants.sum() >= 3 * GRANTS_PER_STRETCH, "grants: " + validGrants.sum());
            assertTrue(store.accepted() >= validGrants.sum());
            // every hold a thread saw go invalid was reported to the listeners, and no hold was reported twice
            List<Loss> reported = new ArrayList<>(lossesA);
            reported.addAll(lossesB);
            assertEquals(reported.size(), new HashSet<>(reported).size(), "a hold reported lost twice: " + reported);
            assertTrue(reported.containsAll(seenLost), "seen lost " + seenLost + ", reported " + reported);
        }
    }

    private static void awaitGrants(LongAdder grants, int more) {
        long target = grants.sum() + more;
        await().atMost(Duration.ofSeconds(40)).until(() -> grants.sum() >= target);
    }

    /**
     * The elements from index {@code from} on, of one snapshot: a sub-list of a CopyOnWriteArrayList that another thread
     * appends to meanwhile throws ConcurrentModificationException when iterated.
     */
    private static <T> List<T> since(List<T> list, int from) {
        List<T> snapshot = List.copyOf(list);
        return snapshot.subList(from, snapshot.size());
    }

    /** The ensemble's leader, asked of each server with the {@code srvr} command (allowed by default). */
    private static InstanceSpec awaitLeader(TestingCluster cluster) {
        InstanceSpec[] leader = new InstanceSpec[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (InstanceSpec spec : cluster.getInstances()) {
                if (srvr(spec.getPort()).contains("Mode: leader")) {
                    leader[0] = spec;
                    return true;
                }
            }
            return false;
        });
        return leader[0];
    }

    private static String srvr(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return e.toString(); // not serving yet
        }
    }

    /** One hold reported (or seen) lost. */
    private record Loss(Thread holder, long token) {
        @Override
        public String toString() {
            return holder.getName() + "#" + token;
        }
    }

    /** The connection states one node's Curator client went through, in order. */
    private static final class States {
        /** Appended by Curator's event thread; copy-on-write. */
        private final List<ConnectionState> seen = new CopyOnWriteArrayList<>();

        States(ClusterNode node) {
            // Curator hands each state to every listener on its one event thread before the next state, so once a
            // later state is seen here the lock provider has handled the earlier ones (invalidated the holds)
            node.client().getConnectionStateListenable().addListener((client, state) -> seen.add(state));
        }

        int mark() {
            return seen.size();
        }

        List<ConnectionState> since(int from) {
            return ClusterLockStressTest.since(seen, from);
        }

        /** Waits until the states seen since {@code from} contain {@code expected} in this order. */
        void awaitInOrder(int from, ConnectionState... expected) {
            await().atMost(Duration.ofSeconds(30))
                    .alias("connection states " + List.of(expected) + " in order")
                    .until(() -> containsInOrder(since(from), expected));
        }

        private static boolean containsInOrder(List<ConnectionState> states, ConnectionState... expected) {
            int next = 0;
            for (ConnectionState state : states) {
                if (next < expected.length && state == expected[next]) {
                    next++;
                }
            }
            return next == expected.length;
        }
    }

    /**
     * A hold taken on a thread of its own and kept until released, so that a fault finds a holder to invalidate. The
     * constructor returns once the lock is granted (and valid).
     */
    private static final class Witness {
        final Thread thread;
        /** Written by the witness thread before {@link #held} opens. */
        volatile long token;
        /** Written by the witness thread before {@link #done} opens. */
        volatile boolean validAtRelease;
        /** Written by the witness thread before {@link #done} opens. */
        volatile boolean writeAccepted;

        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final CountDownLatch done = new CountDownLatch(1);
        /** Set by {@link #releaseAndReport} before {@link #release} opens. */
        private volatile ZkTesting.FencedStore writeTo;

        private volatile Throwable failure;

        Witness(FencedLock lock, String name, AtomicLong lastToken, AtomicInteger tokenRegressions)
                throws InterruptedException {
            thread = new Thread(
                    () -> {
                        try {
                            lock.lockInterruptibly();
                            try {
                                token = lock.fencingToken();
                                assertTrue(lock.isValid(), "the witness's hold is valid when granted");
                                if (token <= lastToken.getAndSet(token)) {
                                    tokenRegressions.incrementAndGet();
                                }
                                held.countDown();
                                release.await();
                                validAtRelease = lock.isValid();
                                ZkTesting.FencedStore store = writeTo;
                                writeAccepted = store != null && store.write(token);
                            } finally {
                                lock.unlock();
                            }
                        } catch (Throwable e) {
                            failure = e;
                        } finally {
                            held.countDown();
                            done.countDown();
                        }
                    },
                    name);
            thread.start();
            assertTrue(held.await(30, TimeUnit.SECONDS), name + " granted");
            assertEquals(null, failure);
        }

        /** Lets go of the hold (after offering its token to {@code store} if {@code write}) and waits for it. */
        Witness releaseAndReport(ZkTesting.FencedStore store, boolean write) throws InterruptedException {
            writeTo = write ? store : null;
            release.countDown();
            assertTrue(done.await(30, TimeUnit.SECONDS), thread.getName() + " released");
            assertEquals(null, failure);
            return this;
        }
    }
}
