package org.rouse.cluster.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.jobs.spi.JobPlacement;
import org.rouse.lock.FencedLock;

/** {@code rouse:cluster} on two nodes of one real ZooKeeper server: who holds a lock, who leads a job. */
@Timeout(60)
class ClusterCommandsTest {

    @Test
    void eachNodeSeesWhichNodeHoldsTheLockAndWhichLeadsTheJob() throws Exception {
        try (TestingServer server = ZkTesting.server()) {
            ClusterNode a = ClusterNode.start(ZkTesting.settings(server.getConnectString()), "node-a");
            ClusterNode b = ClusterNode.start(ZkTesting.settings(server.getConnectString()), "node-b");
            try {
                assertTrue(a.awaitConnected(20_000) && b.awaitConnected(20_000));
                ClusterCommands onA = new ClusterCommands(a);
                ClusterCommands onB = new ClusterCommands(b);
                CountDownLatch held = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                Thread holder = new Thread(
                        () -> {
                            FencedLock lock = a.locks().lock("cluster.report");
                            lock.lock();
                            try {
                                held.countDown();
                                release.await(30, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            } finally {
                                lock.unlock();
                            }
                        },
                        "report-holder");
                holder.start();
                assertTrue(held.await(20, TimeUnit.SECONDS));
                JobPlacement.Membership jobA = a.jobs().join("report-job", JobPlacement.LEADER);
                await().atMost(Duration.ofSeconds(20)).until(jobA::runsHere); // a joined first: it leads
                JobPlacement.Membership jobB = b.jobs().join("report-job", JobPlacement.LEADER);

                String reportA = onA.report();
                String reportB = onB.report();

                assertTrue(reportA.startsWith("node node-a (this node): connected"), reportA);
                assertTrue(reportA.contains("held by node-a (this node); here: thread report-holder token "), reportA);
                assertTrue(reportA.contains(" valid"), reportA);
                assertTrue(reportB.contains("lock cluster.report"), reportB);
                assertTrue(reportB.contains("held by node-a\n"), reportB);
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    assertTrue(onA.report()
                            .matches("(?s).*job  report-job +LEADER leader here: yes +leader node-a"
                                    + " \\(this node\\).*"));
                    assertTrue(
                            onB.report().matches("(?s).*job  report-job +LEADER leader here: no +leader node-a\n.*"));
                });

                release.countDown();
                holder.join(TimeUnit.SECONDS.toMillis(20));
                await().atMost(Duration.ofSeconds(20))
                        // free: its node is gone (and the server may have removed the emptied container too)
                        .until(() -> !onB.report().matches("(?s).*lock cluster\\.report +held by.*"));

                // rouse:cluster hold: b takes the lock on a thread of its own; both nodes see b holding it
                onB.cluster("hold", "cluster.report", "30");
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> onB.report()
                                .contains("held by node-b (this node); here: thread"
                                        + " rouse-cluster-hold-cluster.report token "));
                assertTrue(onA.report().contains("held by node-b\n"), onA.report());
                jobA.close();
                jobB.close();
            } finally {
                a.close();
                b.close();
            }
        }
    }
}
