package org.rouse.cluster.internal;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's membership in the cluster, without OSGi: one Curator client built from {@link ClusterSettings},
 * the {@link ZkLockProvider} and the {@link ZkJobPlacement} on it. {@link ClusterComponent} makes one per good
 * configuration; tests make several in one JVM (each a "node").
 *
 * <pre>{@code
 * ClusterNode node = ClusterNode.start(settings);
 * FencedLock lock = node.locks().lock("cluster.billing");
 * node.close();   // holds become invalid, the session ends, its ephemeral nodes go
 * }</pre>
 */
final class ClusterNode implements AutoCloseable {

    /*
     * Implementation notes.
     *
     * Sources: Apache Curator's CuratorFrameworkFactory.Builder (authorization, aclProvider, namespace); ZooKeeper
     * Programmer's Guide, "ACL Permissions" (the digest scheme and CREATOR_ALL_ACL, which grants all permissions to
     * the ids the creating session authenticated as).
     *
     * Invariants. With digest credentials every node this client creates, the namespace node included, carries
     * CREATOR_ALL_ACL; without, OPEN_ACL_UNSAFE (and a WARN once per client). The credentials never reach a log line:
     * only ClusterSettings.toString() is logged.
     */

    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

    private final ClusterSettings settings;
    private final CuratorFramework client;
    private final ZkLockProvider locks;
    private final ZkJobPlacement jobs;

    private ClusterNode(ClusterSettings settings, CuratorFramework client, String nodeId) {
        this.settings = settings;
        this.client = client;
        this.locks = new ZkLockProvider(client, settings);
        this.jobs = new ZkJobPlacement(client, nodeId);
    }

    /** Builds and starts the client; it connects in the background (locks wait for it). */
    static ClusterNode start(ClusterSettings settings) {
        return start(settings, newNodeId());
    }

    /**
     * A node id an operator can tell apart: {@code <pid>@<host>-<8 hex digits>} (the JVM's name as
     * {@code RuntimeMXBean.getName()} gives it, no DNS look-up, and a random suffix so that a reused pid is a new
     * member, and two JVMs that are both pid 1 on one host, as in containers, are told apart).
     */
    static String newNodeId() {
        String jvm = ManagementFactory.getRuntimeMXBean().getName();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        return jvm.replace('/', '_') + "-" + suffix;
    }

    /** As {@link #start(ClusterSettings)}, with this node's id among the job placement's members. */
    static ClusterNode start(ClusterSettings settings, String nodeId) {
        List<ACL> acl = settings.digestBytes() == null ? ZooDefs.Ids.OPEN_ACL_UNSAFE : ZooDefs.Ids.CREATOR_ALL_ACL;
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(settings.connectString())
                .sessionTimeoutMs(settings.sessionTimeoutMs())
                .connectionTimeoutMs(settings.connectionTimeoutMs())
                .namespace(settings.namespace())
                .retryPolicy(new BoundedExponentialBackoffRetry(100, 2_000, 10))
                .aclProvider(new FixedAcl(acl))
                // every node created without data of its own (the lock nodes) names its creator: rouse:cluster
                // reads a lock's holder from it
                .defaultData(nodeId.getBytes(StandardCharsets.UTF_8));
        byte[] digest = settings.digestBytes();
        if (digest != null) {
            builder.authorization("digest", digest);
        } else {
            LOG.warn(
                    "Cluster nodes under /{} are open to every ZooKeeper client: set acl.digest of {}",
                    settings.namespace(),
                    ClusterSettings.PID);
        }
        CuratorFramework client = builder.build();
        client.start();
        ClusterNode node = new ClusterNode(settings, client, nodeId);
        LOG.info("Joined the Rouse cluster: {}", settings);
        return node;
    }

    /** The cluster lock provider of this node. */
    ZkLockProvider locks() {
        return locks;
    }

    /** The job placement of this node. */
    ZkJobPlacement jobs() {
        return jobs;
    }

    /** The Curator client (tests expire its session). */
    CuratorFramework client() {
        return client;
    }

    /** This node's id among the job placement's members and in its lock nodes' data. */
    String nodeId() {
        return jobs.nodeId();
    }

    ClusterSettings settings() {
        return settings;
    }

    /** Waits up to {@code millis} for the first connection. */
    boolean awaitConnected(long millis) throws InterruptedException {
        return client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, millis), TimeUnit.MILLISECONDS);
    }

    /** Leaves every job, invalidates every hold, then closes the session (its ephemeral nodes go with it). */
    @Override
    public void close() {
        jobs.close();
        locks.close();
        client.close();
        LOG.info("Left the Rouse cluster {}", ClusterSettings.redact(settings.connectString()));
    }

    /** The same ACL for every node. */
    private record FixedAcl(List<ACL> acl) implements ACLProvider {
        @Override
        public List<ACL> getDefaultAcl() {
            return acl;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return acl;
        }
    }
}
