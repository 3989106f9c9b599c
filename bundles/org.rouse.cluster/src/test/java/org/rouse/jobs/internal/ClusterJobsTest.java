package org.rouse.jobs.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.cluster.internal.TestNodes;

/**
 * runOn jobs of the jobs bundle (its JobsCore, on a real timer front) placed by two cluster nodes against one real
 * ZooKeeper server: a LEADER job runs once per period across the nodes and moves when the leader leaves; SINGLE jobs
 * run each on exactly one node, spread over both.
 */
@Timeout(90)
class ClusterJobsTest {

    private static final int SESSION_MS = 2_000;

    private TestingServer server;
    private final TimerFrontCore front = new TimerFrontCore();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<AutoCloseable> closing = new ArrayList<>();
    /** (node, job) of every run, in order. */
    private final ConcurrentLinkedQueue<String[]> runs = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(true);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        pool.shutdownNow();
        server.close();
    }

    /** One node: a cluster node and a JobsCore that places its runOn jobs with it. */
    private JobsCore node(String id, TestNodes.Node cluster, String runOn, List<String> jobNames) {
        JobsCore core = new JobsCore(front.newView("jobs-" + id), pool);
        closing.add(0, core::close);
        core.placement(cluster.jobs());
        long serviceId = 1;
        for (String job : jobNames) {
            Map<String, Object> properties = new HashMap<>();
            properties.put(JobProperties.PERIOD, 1L);
            properties.put(JobProperties.NAME, job);
            properties.put(JobProperties.RUN_ON, runOn);
            assertTrue(core.add(serviceId++, "test [" + id + "]", "Runnable", properties::get, () -> {
                runs.add(new String[] {id, job});
                return null;
            }));
        }
        return core;
    }

    private long runsOf(String node) {
        return runs.stream().filter(r -> r[0].equals(node)).count();
    }

    @Test
    void aLeaderJobRunsOncePerPeriodAcrossNodesAndMovesWhenTheLeaderLeaves() throws Exception {
        TestNodes.Node a = TestNodes.start(server.getConnectString(), "node-a");
        TestNodes.Node b = TestNodes.start(server.getConnectString(), "node-b");
        closing.add(b);
        JobsCore onA = node("a", a, JobProperties.LEADER, List.of("report"));
        node("b", b, JobProperties.LEADER, List.of("report"));

        await().atMost(Duration.ofSeconds(20)).until(() -> runs.size() >= 1);
        String leader = runs.peek()[0];
        String follower = leader.equals("a") ? "b" : "a";
        runs.clear();
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(5));
        long periods = 5;
        assertEquals(0, runsOf(follower), "the follower never runs the job");
        long led = runsOf(leader);
        assertTrue(led >= periods - 1 && led <= periods + 1, "one run per period: " + led + " in " + periods);

        // the leader's client closes: the follower takes over within the session timeout and one period
        TestNodes.Node leaving = leader.equals("a") ? a : b;
        if (leaving == a) {
            onA.close();
        }
        runs.clear();
        long closed = System.nanoTime();
        leaving.close();
        await().atMost(Duration.ofSeconds(20)).until(() -> runsOf(follower) >= 1);
        long takeover = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed);
        assertTrue(takeover <= SESSION_MS + 1_000 + 500, "took over after " + takeover + " ms");
        if (leaving == b) {
            a.close();
        }
    }

    @Test
    void singleJobsRunOnExactlyOneNodeEachAndSpreadOverBoth() throws Exception {
        TestNodes.Node a = TestNodes.start(server.getConnectString(), "node-a");
        TestNodes.Node b = TestNodes.start(server.getConnectString(), "node-b");
        closing.add(a);
        closing.add(b);
        List<String> jobs = List.of("j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7");
        JobsCore onA = node("a", a, JobProperties.SINGLE, jobs);
        JobsCore onB = node("b", b, JobProperties.SINGLE, jobs);
        // settled: every job placed on exactly one node
        await().atMost(Duration.ofSeconds(20)).until(() -> jobs.stream().allMatch(j -> here(onA, j) != here(onB, j)));
        runs.clear();
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(3));
        for (String job : jobs) {
            long onNodeA = runs.stream()
                    .filter(r -> r[1].equals(job) && r[0].equals("a"))
                    .count();
            long onNodeB = runs.stream()
                    .filter(r -> r[1].equals(job) && r[0].equals("b"))
                    .count();
            assertTrue(onNodeA == 0 || onNodeB == 0, job + " ran on both nodes: " + onNodeA + "/" + onNodeB);
            assertTrue(onNodeA + onNodeB >= 2, job + " ran " + (onNodeA + onNodeB) + " times in 3 periods");
        }
        assertTrue(runsOf("a") > 0 && runsOf("b") > 0, "spread over both nodes: " + runsOf("a") + "/" + runsOf("b"));
    }

    private static boolean here(JobsCore core, String job) {
        return core.byName(job).orElseThrow().placementState().equals("here");
    }
}
