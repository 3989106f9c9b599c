package org.rouse.cluster.internal;

import org.apache.curator.test.TestingServer;
import org.rouse.jobs.spi.JobPlacement;

/** Cluster nodes for tests outside this package (the jobs bundle's package): a node is a started Curator client. */
public final class TestNodes {

    /** The tick of {@link #server()}: it expires sessions at tick boundaries, so up to one tick late. */
    public static final int TICK_MS = ZkTesting.TICK_MS;

    private TestNodes() {}

    /** A started ZooKeeper server ticking every {@link #TICK_MS} ms, so that the nodes' short sessions are granted. */
    public static TestingServer server() throws Exception {
        return ZkTesting.server();
    }

    /** A connected node with the given member id; close it to leave. */
    public static Node start(String connect, String nodeId) throws InterruptedException {
        ClusterNode node = ClusterNode.start(ZkTesting.settings(connect), nodeId);
        if (!node.awaitConnected(20_000)) {
            node.close();
            throw new AssertionError("not connected to " + connect);
        }
        return new Node(node);
    }

    /** One node: its job placement, and close. */
    public static final class Node implements AutoCloseable {
        private final ClusterNode node;

        Node(ClusterNode node) {
            this.node = node;
        }

        public JobPlacement jobs() {
            return node.jobs();
        }

        /** The session timeout the server granted (it may narrow the one asked for); only while connected. */
        public int sessionTimeoutMs() throws Exception {
            return node.client().getZookeeperClient().getZooKeeper().getSessionTimeout();
        }

        /** Leaves the cluster; a second call does nothing. */
        @Override
        public void close() {
            node.close();
        }
    }
}
