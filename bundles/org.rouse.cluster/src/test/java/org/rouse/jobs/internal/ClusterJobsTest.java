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

    /** The jobs' period, {@link JobProperties#PERIOD} seconds. */
    private static final long PERIOD_MS = 1_000;

    private TestingServer server;
    private final TimerFrontCore front = new TimerFrontCore();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<AutoCloseable> closing = new ArrayList<>();
    /** Every run, in order. */
    private final ConcurrentLinkedQueue<Run> runs = new ConcurrentLinkedQueue<>();

    /** One run of a job on a node, at System.nanoTime(). */
    private record Run(String node, String job, long nanos) {}

    @BeforeEach
    void start() throws Exception {
        server = TestNodes.server();
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
            properties.put(JobProperties.PERIOD, TimeUnit.MILLISECONDS.toSeconds(PERIOD_MS));
            properties.put(JobProperties.NAME, job);
            properties.put(JobProperties.RUN_ON, runOn);
            assertTrue(core.add(serviceId++, "test [" + id + "]", "Runnable", properties::get, () -> {
                runs.add(new Run(id, job, System.nanoTime()));
                return null;
            }));
        }
        return core;
    }

    private long runsOf(String node) {
        return runs.stream().filter(r -> r.node().equals(node)).count();
    }

    @Test
    void aLeaderJobRunsOncePerPeriodAcrossNodesAndMovesWhenTheLeaderLeaves() throws Exception {
        TestNodes.Node a = TestNodes.start(server.getConnectString(), "node-a");
        closing.add(a);
        TestNodes.Node b = TestNodes.start(server.getConnectString(), "node-b");
        closing.add(b);
        JobsCore onA = node("a", a, JobProperties.LEADER, List.of("report"));
        node("b", b, JobProperties.LEADER, List.of("report"));

        await().atMost(Duration.ofSeconds(20)).until(() -> runs.size() >= 1);
        String leader = runs.peek().node();
        String follower = leader.equals("a") ? "b" : "a";
        runs.clear();
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(5));
        long periods = 5;
        assertEquals(0, runsOf(follower), "the follower never runs the job");
        long led = runsOf(leader);
        assertTrue(led >= periods - 1 && led <= periods + 1, "one run per period: " + led + " in " + periods);

        // the leader leaves: its close deletes its latch node and ends its session, so the follower leads as soon as
        // its watch fires. Were both lost on the way, the server would still expire the session: at most the granted
        // timeout, rounded up to the server's next tick. The follower then runs at its next due time, at most one
        // period later. Margin: 500 ms for the watch event and the timer's hand-off to the pool on a loaded machine.
        TestNodes.Node leaving = leader.equals("a") ? a : b;
        long bound = leaving.sessionTimeoutMs() + TestNodes.TICK_MS + PERIOD_MS + 500;
        long leavingAt = System.nanoTime();
        if (leaving == a) {
            onA.close();
        }
        leaving.close();
        long leftAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> runsOf(follower) >= 2);
        // in order: the follower never ran before the leader left, and every run after the close is the follower's
        List<Run> order = List.copyOf(runs);
        assertTrue(
                order.stream().noneMatch(r -> r.node().equals(follower) && r.nanos() < leavingAt),
                "the follower ran before the leader left: " + order);
        assertTrue(
                order.stream()
                        .filter(r -> r.nanos() > leftAt)
                        .allMatch(r -> r.node().equals(follower)),
                "a run after the close not on the follower: " + order);
        Run first = order.stream()
                .filter(r -> r.node().equals(follower))
                .findFirst()
                .orElseThrow();
        long takeover = TimeUnit.NANOSECONDS.toMillis(first.nanos() - leavingAt);
        assertTrue(takeover <= bound, "took over after " + takeover + " ms, bound " + bound + " ms");
    }

    @Test
    void singleJobsRunOnExactlyOneNodeEachAndSpreadOverBoth() throws Exception {
        TestNodes.Node a = TestNodes.start(server.getConnectString(), "node-a");
        closing.add(a);
        TestNodes.Node b = TestNodes.start(server.getConnectString(), "node-b");
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
                    .filter(r -> r.job().equals(job) && r.node().equals("a"))
                    .count();
            long onNodeB = runs.stream()
                    .filter(r -> r.job().equals(job) && r.node().equals("b"))
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
