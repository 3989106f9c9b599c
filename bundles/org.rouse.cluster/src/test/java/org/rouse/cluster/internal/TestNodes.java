package org.rouse.cluster.internal;

import org.rouse.jobs.spi.JobPlacement;

/** Cluster nodes for tests outside this package (the jobs bundle's package): a node is a started Curator client. */
public final class TestNodes {

    private TestNodes() {}

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

        @Override
        public void close() {
            node.close();
        }
    }
}
