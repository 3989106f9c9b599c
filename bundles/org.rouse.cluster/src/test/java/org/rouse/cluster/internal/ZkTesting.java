package org.rouse.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.rouse.config.ConfigCheck;

/** Helpers for tests against a real ZooKeeper (curator-test's servers, 100 ms ticks so sessions may be short). */
final class ZkTesting {

    /** ZooKeeper ticks in the test servers: sessions may be 200 ms to 2 s. */
    static final int TICK_MS = 100;
    /** The session timeout test nodes ask for. */
    static final int SESSION_MS = 2_000;

    private ZkTesting() {}

    static InstanceSpec spec(int serverId) {
        return new InstanceSpec(null, -1, -1, -1, true, serverId, TICK_MS, -1);
    }

    static TestingServer server() throws Exception {
        return new TestingServer(spec(-1), true);
    }

    static ClusterSettings settings(String connect, String... patterns) {
        ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
        ClusterSettings settings = ClusterSettings.of(
                check,
                connect,
                SESSION_MS,
                1_000,
                "rouse",
                "rouse:secret",
                patterns.length == 0 ? new String[] {"cluster.*"} : patterns);
        assertTrue(check.passed(), check.problems().toString());
        return settings;
    }

    /** A started node, connected. */
    static ClusterNode node(String connect) throws InterruptedException {
        ClusterNode node = ClusterNode.start(settings(connect));
        assertTrue(node.awaitConnected(TimeUnit.SECONDS.toMillis(20)), "connected to " + connect);
        return node;
    }

    /** Accepts a write only with a token at least as large as every token it accepted before. */
    static final class FencedStore {
        private long highest = Long.MIN_VALUE;
        private long accepted;
        private long rejected;

        synchronized boolean write(long token) {
            if (token < highest) {
                rejected++;
                return false;
            }
            highest = token;
            accepted++;
            return true;
        }

        synchronized long accepted() {
            return accepted;
        }

        synchronized long rejected() {
            return rejected;
        }
    }
}
