package org.rouse.cluster.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.rouse.jobs.spi.JobPlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job placement on ZooKeeper: a Curator {@link LeaderLatch} per job at {@code /jobs/<name>}. {@code LEADER} jobs: every
 * node joins the latch, the latch's leader runs the job. {@code SINGLE} jobs: only the node that rendezvous hashing
 * picks among the live members ({@code /members/<node id>}, ephemeral) joins; the others leave, so the jobs spread
 * over the nodes and the latch still guarantees one runner at a time while the nodes' views of the members differ.
 *
 * <pre>{@code
 * ZkJobPlacement jobs = new ZkJobPlacement(client, "node-1");
 * JobPlacement.Membership m = jobs.join("nightly-report", JobPlacement.LEADER);
 * if (m.runsHere()) { ... }
 * }</pre>
 */
final class ZkJobPlacement implements JobPlacement, ConnectionStateListener {

    /*
     * Implementation notes.
     *
     * Sources: Apache Curator, LeaderLatch (an EPHEMERAL_SEQUENTIAL node per participant; the lowest leads; a
     * participant watches its predecessor), PersistentNode (an ephemeral node re-created after a session loss),
     * CuratorCache; D. Thaler, C. Ravishankar, "Using name-based mappings to increase hit rates" (1998): rendezvous
     * (highest random weight) hashing, so adding or removing a node moves only the jobs it wins or held.
     *
     * Invariants.
     * 1. runsHere() is true only while this node leads the job's latch and its connection is not suspended (the
     *    suspended flag is set by the connection listener on SUSPENDED/LOST/READ_ONLY before the latch itself reacts),
     *    so at most one node runs a job at a time, bounded by the session timeout as for cluster locks.
     * 2. A SINGLE job's latch is open on this node iff this node is the job's rendezvous winner among the members it
     *    sees; re-evaluated on every change of the members.
     *
     * Costs. runsHere(): two volatile reads. Each membership change re-hashes every SINGLE job of this node.
     */

    private static final Logger LOG = LoggerFactory.getLogger(ZkJobPlacement.class);

    private final CuratorFramework client;
    private final String nodeId;
    private final PersistentNode member;
    private final CuratorCache members;
    /** Joined jobs by name; guarded by this. */
    private final Map<String, ZkMembership> joined = new HashMap<>();
    /** Live member ids as last seen; written under this, volatile for reads. */
    private volatile Set<String> memberIds = Set.of();
    /** Whether the connection is suspended or lost (invariant 1); volatile, written by the connection listener. */
    private volatile boolean suspended;
    /** Guarded by this. */
    private boolean closed;

    ZkJobPlacement(CuratorFramework client, String nodeId) {
        this.client = client;
        this.nodeId = nodeId;
        client.getConnectionStateListenable().addListener(this);
        this.member = new PersistentNode(
                client, CreateMode.EPHEMERAL, false, "/members/" + nodeId, nodeId.getBytes(StandardCharsets.UTF_8));
        this.members = CuratorCache.build(client, "/members");
        members.listenable()
                .addListener(CuratorCacheListener.builder()
                        .forAll((type, before, after) -> rebalance())
                        .forInitialized(this::rebalance)
                        .build());
        member.start();
        members.start();
    }

    @Override
    public synchronized Membership join(String jobName, String runOn) {
        if (!LEADER.equals(runOn) && !SINGLE.equals(runOn)) {
            throw new IllegalArgumentException("runOn must be LEADER or SINGLE: " + runOn);
        }
        if (closed) {
            throw new IllegalStateException("the job placement has been closed");
        }
        ZkMembership membership = new ZkMembership(jobName, SINGLE.equals(runOn));
        ZkMembership previous = joined.put(jobName, membership);
        if (previous != null) {
            previous.leave();
        }
        membership.evaluate();
        return membership;
    }

    /** Re-reads the members and opens or closes each SINGLE job's latch (invariant 2). */
    private synchronized void rebalance() {
        if (closed) {
            return;
        }
        Set<String> ids = new TreeSet<>();
        members.stream()
                .map(data -> data.getPath())
                .filter(path -> path.startsWith("/members/"))
                .forEach(path -> ids.add(path.substring("/members/".length())));
        memberIds = Set.copyOf(ids);
        for (ZkMembership membership : joined.values()) {
            membership.evaluate();
        }
    }

    /** The rendezvous winner of {@code jobName} among {@code ids}, or null when there are none. */
    static String winner(String jobName, Set<String> ids) {
        String best = null;
        long bestWeight = Long.MIN_VALUE;
        for (String id : ids) {
            long weight = mix((jobName + '\u0000' + id).hashCode() * 0x9E3779B97F4A7C15L);
            if (best == null || weight > bestWeight || (weight == bestWeight && id.compareTo(best) < 0)) {
                best = id;
                bestWeight = weight;
            }
        }
        return best;
    }

    /** SplitMix64's finalizer: spreads the bits of a weak hash. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public void stateChanged(CuratorFramework source, ConnectionState state) {
        if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST || state == ConnectionState.READ_ONLY) {
            suspended = true;
        } else if (state.isConnected()) {
            suspended = false;
        }
    }

    String nodeId() {
        return nodeId;
    }

    /**
     * One line per joined job for {@code rouse:cluster}: its name, LEADER or SINGLE, whether it runs here, and the
     * id of its latch's current leader (asked of ZooKeeper).
     */
    List<String> describeJobs() {
        List<ZkMembership> memberships;
        synchronized (this) {
            memberships = new ArrayList<>(new TreeMap<>(joined).values());
        }
        List<String> lines = new ArrayList<>(); // the ZooKeeper reads outside the monitor: rebalance() never waits
        for (ZkMembership membership : memberships) {
            lines.add(membership.describe());
        }
        return lines;
    }

    /** Leaves every job and the members. */
    synchronized void close() {
        closed = true;
        for (ZkMembership membership : joined.values()) {
            membership.leave();
        }
        joined.clear();
        client.getConnectionStateListenable().removeListener(this);
        members.close();
        try {
            member.close();
        } catch (IOException e) {
            LOG.debug("Removing member node {} failed; it goes with the session", nodeId, e);
        }
    }

    /** This node's part in one job. */
    private final class ZkMembership implements Membership {
        private final String jobName;
        private final boolean single;
        /** The open latch or null; written under ZkJobPlacement.this, volatile for runsHere(). */
        private volatile LeaderLatch latch;
        /** Set by leave(); written under ZkJobPlacement.this. */
        private volatile boolean left;

        ZkMembership(String jobName, boolean single) {
            this.jobName = jobName;
            this.single = single;
        }

        /** Under ZkJobPlacement.this. */
        void evaluate() {
            if (left) {
                return;
            }
            boolean wanted = !single || nodeId.equals(winner(jobName, memberIds));
            if (wanted && latch == null) {
                LeaderLatch open = new LeaderLatch(client, "/jobs/" + ZkLockProvider.element(jobName), nodeId);
                try {
                    open.start();
                    latch = open;
                } catch (Exception e) {
                    LOG.error("Job {} could not join its leader latch", jobName, e);
                }
            } else if (!wanted && latch != null) {
                closeLatch();
            }
        }

        /** Under ZkJobPlacement.this. */
        void leave() {
            left = true;
            closeLatch();
        }

        private void closeLatch() {
            LeaderLatch open = latch;
            latch = null;
            if (open != null) {
                try {
                    open.close();
                } catch (IOException | IllegalStateException e) {
                    LOG.debug("Closing the leader latch of job {} failed", jobName, e);
                }
            }
        }

        @Override
        public boolean runsHere() {
            LeaderLatch open = latch;
            return open != null && !suspended && open.hasLeadership();
        }

        @Override
        public void close() {
            synchronized (ZkJobPlacement.this) {
                if (joined.get(jobName) == this) {
                    joined.remove(jobName);
                }
                leave();
            }
        }

        /** Any thread; reads the latch once (volatile). */
        String describe() {
            String leader;
            LeaderLatch open = latch;
            if (open == null) {
                leader = "not a candidate here";
            } else {
                try {
                    String id = open.getLeader().getId();
                    leader = id.isEmpty() ? "no leader" : "leader " + id + (id.equals(nodeId) ? " (this node)" : "");
                } catch (Exception e) {
                    leader = "leader unknown (" + e.getClass().getSimpleName() + ")";
                }
            }
            return String.format(
                    "job  %-28s %-6s leader here: %-3s %s",
                    jobName, single ? SINGLE : LEADER, runsHere() ? "yes" : "no", leader);
        }

        @Override
        public String toString() {
            return "job " + jobName + (single ? " (SINGLE)" : " (LEADER)") + " on " + nodeId
                    + (runsHere() ? ": runs here" : ": runs elsewhere");
        }
    }
}
