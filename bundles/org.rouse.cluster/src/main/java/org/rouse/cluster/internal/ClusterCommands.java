package org.rouse.cluster.internal;

import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.rouse.lock.FencedLock;

/**
 * The shell command {@code rouse:cluster}: this node, its ZooKeeper session, every cluster lock with the node that
 * holds it (cluster-wide, read from ZooKeeper) and this process's own holds, and every runOn job this node joined
 * with its leader. Registered by {@link ClusterComponent} while the node is in the cluster, as a plain service with
 * {@code osgi.command.scope=rouse} and {@code osgi.command.function=cluster}, so the bundle needs no Gogo import; it
 * writes to {@code System.out}, which Gogo points at the calling session.
 *
 * <pre>
 * g! rouse:cluster
 * node 4711@host-3f2a (this node): connected to 127.0.0.1:2181, namespace /rouse, session 0x1000..., timeout 4000 ms
 * lock cluster.billing              held by 4711@host-3f2a (this node), 1 waiting; here: thread worker-1 token 470 valid
 * job  nightly-report               LEADER leader here: yes leader 4711@host-3f2a (this node)
 * g! rouse:cluster hold cluster.billing 30
 * waiting for cluster lock cluster.billing on thread rouse-cluster-hold-cluster.billing
 * [rouse:cluster] cluster.billing granted to 4711@host-3f2a, token 472; held for 30 s
 * </pre>
 */
public final class ClusterCommands {

    /*
     * Implementation notes. A lock's holder is the creator of its lowest lock node (Curator's InterProcessMutex grants
     * in sequence order; ZkLock's nodes carry their creator's node id as data through the client's default data). The
     * command costs one getChildren for /locks and one getChildren + getData per lock, plus one getLeader per job:
     * operator use only.
     */

    /** The functions this object offers, for its registration. */
    static final String[] FUNCTIONS = {"cluster"};

    /** Help of {@code rouse:cluster}. */
    public static final String CLUSTER_HELP = "This node's ZooKeeper session, every cluster mutex (lock and sharedLock)"
            + " with the node that holds it, and every runOn job with its leader; read-write cluster locks are not"
            + " listed";

    /** Help of {@code rouse:cluster hold <lock> <seconds>}. */
    public static final String HOLD_HELP = "Take a cluster lock on a thread of its own and hold it for some seconds,"
            + " printing when it is granted (with its fencing token) and released: try the lock across nodes";

    /** The usage line of the hold form. */
    static final String HOLD_USAGE = "rouse:cluster hold <lock> <seconds 1-3600>";

    private final ClusterNode node;
    /** The hold threads still running; added by the shell's thread, removed by each hold thread itself. */
    private final Set<Thread> holders = ConcurrentHashMap.newKeySet();

    ClusterCommands(ClusterNode node) {
        this.node = node;
    }

    /**
     * Interrupts every hold thread (they release their locks and end), so a node that leaves the cluster keeps no
     * thread, and through it no class loader, of this bundle.
     */
    void close() {
        holders.forEach(Thread::interrupt);
    }

    /** Prints the report ({@code rouse:cluster}). */
    public void cluster() {
        System.out.print(report());
    }

    /**
     * {@code rouse:cluster hold <lock> <seconds>}: a thread of its own waits for the cluster lock, holds it for
     * {@code seconds} and releases it, printing each step; returns at once. The lock name must match
     * {@code lock.patterns}.
     */
    public void cluster(String verb, String lockName, String seconds) {
        if (!"hold".equals(verb)) {
            throw new IllegalArgumentException("unknown verb '" + verb + "'; usage: " + HOLD_USAGE);
        }
        long holdSeconds;
        try {
            holdSeconds = Long.parseLong(seconds.trim());
        } catch (NumberFormatException e) {
            holdSeconds = -1;
        }
        if (holdSeconds < 1 || holdSeconds > 3600) {
            throw new IllegalArgumentException(
                    "seconds must be a whole number from 1 to 3600, not '" + seconds + "'; usage: " + HOLD_USAGE);
        }
        FencedLock lock = node.locks().lock(lockName); // IllegalArgumentException naming the patterns
        PrintStream out = System.out; // the calling session's stream, for the thread's lines
        long nanos = TimeUnit.SECONDS.toNanos(holdSeconds);
        Thread holder = new Thread(
                () -> {
                    try {
                        hold(lock, nanos, out);
                    } finally {
                        holders.remove(Thread.currentThread());
                    }
                },
                "rouse-cluster-hold-" + lockName);
        holder.setDaemon(true);
        holders.add(holder);
        holder.start();
        out.printf("waiting for cluster lock %s on thread %s%n", lockName, holder.getName());
    }

    private void hold(FencedLock lock, long nanos, PrintStream out) {
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException | RuntimeException e) {
            out.printf("[rouse:cluster] %s not taken: %s%n", lock.name(), e);
            return;
        }
        try {
            out.printf(
                    "[rouse:cluster] %s granted to %s, token %d; held for %d s%n",
                    lock.name(), node.nodeId(), lock.fencingToken(), TimeUnit.NANOSECONDS.toSeconds(nanos));
            long deadline = System.nanoTime() + nanos;
            for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted(); ) {
                LockSupport.parkNanos(left); // holding is the point: nothing to wait for but the deadline or close()
                left = deadline - System.nanoTime();
            }
        } finally {
            try {
                lock.unlock();
                out.printf("[rouse:cluster] %s released by %s%n", lock.name(), node.nodeId());
            } catch (RuntimeException e) {
                out.printf("[rouse:cluster] %s: %s%n", lock.name(), e);
            }
        }
    }

    /** The text of {@code rouse:cluster}. */
    String report() {
        CuratorFramework client = node.client();
        String self = node.nodeId();
        StringBuilder out = new StringBuilder();
        String session;
        try {
            var zk = client.getZookeeperClient().getZooKeeper();
            session = String.format(
                    "session 0x%x, timeout %d ms (%d ms asked)",
                    zk.getSessionId(), zk.getSessionTimeout(), node.settings().sessionTimeoutMs());
        } catch (Exception e) {
            session = "no session (" + e.getClass().getSimpleName() + ")";
        }
        out.append(String.format(
                "node %s (this node): %s to %s, namespace /%s, %s%n",
                self,
                client.getZookeeperClient().isConnected() ? "connected" : "NOT connected",
                ClusterSettings.redact(node.settings().connectString()),
                node.settings().namespace(),
                session));
        Map<String, ZkLock> here = node.locks().liveLocks();
        Map<String, String> locks = new TreeMap<>();
        try {
            for (String element : client.getChildren().forPath("/locks")) {
                String name = URLDecoder.decode(element, StandardCharsets.UTF_8);
                locks.put(name, holder(client, "/locks/" + element, self));
            }
        } catch (KeeperException.NoNodeException e) {
            // no cluster lock was ever taken under this namespace
        } catch (Exception e) {
            out.append("locks: cannot read /locks (").append(e).append(")\n");
        }
        for (String name : here.keySet()) {
            locks.putIfAbsent(name, "free");
        }
        if (locks.isEmpty()) {
            out.append("no cluster lock in use\n");
        }
        for (Map.Entry<String, String> lock : locks.entrySet()) {
            ZkLock local = here.get(lock.getKey());
            List<String> holds = local == null ? List.of() : local.describeHolds();
            out.append(String.format(
                    "lock %-28s %s%s%n",
                    lock.getKey(), lock.getValue(), holds.isEmpty() ? "" : "; here: " + String.join(", ", holds)));
        }
        for (String job : node.jobs().describeJobs()) {
            out.append(job).append('\n');
        }
        return out.toString();
    }

    /** "held by <node>[ (this node)][, n waiting]" or "free", from the lock's nodes. */
    private static String holder(CuratorFramework client, String path, String self) throws Exception {
        List<String> children = new ArrayList<>(client.getChildren().forPath(path));
        if (children.isEmpty()) {
            return "free";
        }
        children.sort(Comparator.comparing(ClusterCommands::sequence));
        String holder;
        try {
            byte[] data = client.getData().forPath(path + "/" + children.get(0));
            holder = data == null || data.length == 0 ? "?" : new String(data, StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException released) {
            return "changing hands";
        }
        return "held by " + holder + (holder.equals(self) ? " (this node)" : "")
                + (children.size() > 1 ? ", " + (children.size() - 1) + " waiting" : "");
    }

    /** The 10-digit sequence suffix ZooKeeper appends to a sequential node's name. */
    private static String sequence(String child) {
        return child.length() >= 10 ? child.substring(child.length() - 10) : child;
    }
}
