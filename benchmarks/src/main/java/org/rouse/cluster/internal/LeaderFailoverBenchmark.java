package org.rouse.cluster.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.rouse.config.ConfigCheck;
import org.rouse.jobs.internal.BenchJobs;
import org.rouse.jobs.spi.JobPlacement;

/**
 * Failover time of a leader-only job between two nodes: from the leader's loss to the first run of the job on the
 * other node. Each node is a job whiteboard core ({@code JobsCore} on its own timer wheel and pool) with one job,
 * {@code scheduler.period} = 1 s, and either
 *
 * <ul>
 *   <li>{@code rouse}: the cluster bundle's placement ({@link ClusterNode}, its {@code ZkJobPlacement},
 *       {@code scheduler.runOn=LEADER}), or
 *   <li>{@code curator}: the baseline, a raw Curator {@link LeaderLatch} on its own client, the job running only
 *       while {@code latch.hasLeadership()}.
 * </ul>
 *
 * <p>The leader is lost in one of two ways: {@code close} closes its node cleanly (leaves the latch, closes the
 * client: the latch node is deleted at once); {@code expire} cuts its TCP connections and refuses new ones (each node
 * reaches the server through its own loopback proxy), the in-JVM analogue of {@code kill -9}: the server sees the
 * connection drop but keeps the session, and its ephemeral nodes, until the session timeout runs out. The loss comes
 * at a random point of the leader's period, the same for both variants within a trial. One in-process ZooKeeper
 * server (curator-test, 100 ms ticks, so short sessions are allowed); trials alternate the variants.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.rouse.cluster.internal.LeaderFailoverBenchmark [trials] [session ms]
 * </pre>
 */
public final class LeaderFailoverBenchmark {

    /*
     * Implementation notes.
     *
     * Sources: ZooKeeper Programmer's Guide, "ZooKeeper Sessions" (a session outlives its connection until the
     * timeout; the server expires it, deletes its ephemeral nodes and fires the watches); Apache Curator LeaderLatch
     * (each participant watches its predecessor's node).
     *
     * Bound: the other node learns of the loss when the leader's latch node is deleted: at once after close, after
     * the session timeout (rounded up to the server's tick) after a cut. It then runs the job at its next due time,
     * at most one period later. So close ≤ one period, expire ≤ session timeout + tick + one period.
     */

    private static final int TICK_MS = 100;
    private static final long PERIOD_SECONDS = 1;

    private LeaderFailoverBenchmark() {}

    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int sessionMs = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        ExecutorService cleanup = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "failover-cleanup");
            t.setDaemon(true);
            return t;
        });
        Map<String, List<Long>> results = new LinkedHashMap<>();
        for (String mode : List.of("close", "expire")) {
            for (String variant : List.of("curator", "rouse")) {
                results.put(mode + " " + variant, new ArrayList<>());
            }
        }
        Random random = new Random(42);
        int[] negotiated = new int[1];
        System.out.printf(
                Locale.ROOT,
                "trials %d, session timeout %d ms requested, tick %d ms, period %d s, %d cores, %s%n",
                trials,
                sessionMs,
                TICK_MS,
                PERIOD_SECONDS,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        try (TestingServer server =
                new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MS, -1), true)) {
            for (int trial = 1; trial <= trials; trial++) {
                for (String mode : List.of("close", "expire")) {
                    long killDelayNanos = (long) (random.nextDouble() * TimeUnit.SECONDS.toNanos(PERIOD_SECONDS));
                    for (String variant : List.of("curator", "rouse")) {
                        String job = "job-" + trial + "-" + mode + "-" + variant;
                        long millis = trial(
                                server.getPort(), variant, mode, job, sessionMs, killDelayNanos, cleanup, negotiated);
                        System.out.printf(
                                Locale.ROOT,
                                "trial %2d %-6s %-7s kill at +%3d ms into the leader's period: failover %s%n",
                                trial,
                                mode,
                                variant,
                                TimeUnit.NANOSECONDS.toMillis(killDelayNanos),
                                millis < 0 ? "none (see above)" : millis + " ms");
                        if (millis >= 0) {
                            results.get(mode + " " + variant).add(millis);
                        }
                    }
                }
            }
            cleanup.shutdown();
            cleanup.awaitTermination(60, TimeUnit.SECONDS);
        }
        System.out.printf(Locale.ROOT, "negotiated session timeout %d ms%n", negotiated[0]);
        System.out.println("summary (ms; ratio against curator in the same mode)");
        for (String mode : List.of("close", "expire")) {
            long bound = TimeUnit.SECONDS.toMillis(PERIOD_SECONDS) + (mode.equals("expire") ? negotiated[0] : 0);
            List<Long> base = results.get(mode + " curator");
            for (String variant : List.of("curator", "rouse")) {
                List<Long> values = results.get(mode + " " + variant);
                System.out.printf(
                        Locale.ROOT,
                        "%-6s %-7s trials %2d  min %5d  p50 %5d  max %5d  bound %5d  |  p50 %.2fx  max %.2fx%n",
                        mode,
                        variant,
                        values.size(),
                        percentile(values, 0),
                        percentile(values, 50),
                        percentile(values, 100),
                        bound,
                        (double) percentile(values, 50) / Math.max(1, percentile(base, 50)),
                        (double) percentile(values, 100) / Math.max(1, percentile(base, 100)));
            }
        }
    }

    /** Nearest-rank percentile of {@code values}, or -1 when empty. */
    private static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** One trial: two nodes, the leader lost {@code killDelayNanos} after its first run; the failover in ms or -1. */
    private static long trial(
            int serverPort,
            String variant,
            String mode,
            String job,
            int sessionMs,
            long killDelayNanos,
            ExecutorService cleanup,
            int[] negotiated)
            throws Exception {
        Node a = Node.start(variant, serverPort, job, "a", sessionMs);
        Node b = Node.start(variant, serverPort, job, "b", sessionMs);
        negotiated[0] = a.sessionTimeoutMs();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (a.runs.get() + b.runs.get() == 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            Node leader = a.runs.get() > 0 ? a : b;
            Node follower = leader == a ? b : a;
            if (leader.runs.get() == 0) {
                System.out.println("no leader ran within 10 s: " + variant + " " + mode + " " + job);
                return -1;
            }
            // lose the leader at a random point of its period (its run just started)
            LockSupport.parkNanos(leader.lastRun.get() + killDelayNanos - System.nanoTime());
            if (follower.runs.get() != 0) {
                System.out.println("both nodes ran the job before the loss: " + variant + " " + mode + " " + job);
                return -1;
            }
            long lost = System.nanoTime();
            if (mode.equals("close")) {
                leader.closeCleanly();
            } else {
                leader.cut();
            }
            long waitMs = sessionMs + TimeUnit.SECONDS.toMillis(10);
            if (!follower.firstRun.await(waitMs, TimeUnit.MILLISECONDS)) {
                System.out.println("the other node never ran the job: " + variant + " " + mode + " " + job);
                return -1;
            }
            return TimeUnit.NANOSECONDS.toMillis(follower.firstRunNanos.get() - lost);
        } finally {
            // a cut node's close waits for retries against a refused port: never on the measuring thread
            cleanup.execute(a::closeQuietly);
            cleanup.execute(b::closeQuietly);
        }
    }

    /** One node: a job whiteboard with one leader-only job, its ZooKeeper client behind its own proxy. */
    private static final class Node {
        /** Runs of the job on this node; incremented by the job pool. */
        final AtomicInteger runs = new AtomicInteger();
        /** nanoTime of the latest run; written by the job pool. */
        final AtomicLong lastRun = new AtomicLong();
        /** nanoTime of the first run; set once by the job pool. */
        final AtomicLong firstRunNanos = new AtomicLong();

        final CountDownLatch firstRun = new CountDownLatch(1);
        private final Proxy proxy;
        private BenchJobs jobs;
        private ClusterNode cluster;
        private CuratorFramework raw;
        private LeaderLatch latch;

        private Node(Proxy proxy) {
            this.proxy = proxy;
        }

        static Node start(String variant, int serverPort, String job, String id, int sessionMs) throws Exception {
            Node node = new Node(new Proxy(serverPort));
            String connect = "127.0.0.1:" + node.proxy.port();
            if (variant.equals("rouse")) {
                ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
                ClusterSettings settings =
                        ClusterSettings.of(check, connect, sessionMs, 1_000, "rouse", "", new String[] {"cluster.*"});
                if (!check.passed()) {
                    throw new IllegalArgumentException(check.problems().toString());
                }
                node.cluster = ClusterNode.start(settings, id + "-" + job);
                node.cluster.awaitConnected(20_000);
                node.jobs = BenchJobs.start(node.cluster.jobs());
                node.jobs.addPeriodic(job, PERIOD_SECONDS, JobPlacement.LEADER, node::ran);
            } else {
                node.raw = CuratorFrameworkFactory.builder()
                        .connectString(connect)
                        .sessionTimeoutMs(sessionMs)
                        .connectionTimeoutMs(1_000)
                        .namespace("raw")
                        .retryPolicy(new BoundedExponentialBackoffRetry(100, 2_000, 10))
                        .build();
                node.raw.start();
                node.raw.blockUntilConnected(20, TimeUnit.SECONDS);
                node.latch = new LeaderLatch(node.raw, "/jobs/" + job, id);
                node.latch.start();
                LeaderLatch latch = node.latch;
                node.jobs = BenchJobs.start(null);
                node.jobs.addPeriodic(job, PERIOD_SECONDS, null, () -> {
                    if (latch.hasLeadership()) {
                        node.ran();
                    }
                });
            }
            return node;
        }

        private void ran() {
            long now = System.nanoTime();
            lastRun.set(now);
            if (runs.getAndIncrement() == 0) {
                firstRunNanos.set(now);
                firstRun.countDown();
            }
        }

        int sessionTimeoutMs() throws Exception {
            CuratorFramework client = cluster != null ? cluster.client() : raw;
            return client.getZookeeperClient().getZooKeeper().getSessionTimeout();
        }

        /** Leaves the latch and closes the client, as a node that shuts down does. */
        void closeCleanly() throws IOException {
            if (cluster != null) {
                cluster.close();
            } else {
                latch.close();
                raw.close();
            }
        }

        /** Cuts the connection and refuses new ones: the session stays on the server until it expires. */
        void cut() {
            proxy.close();
        }

        void closeQuietly() {
            try {
                jobs.close();
            } catch (Exception | Error e) {
                // measured already; cleanup only
            }
            try {
                if (cluster != null) {
                    cluster.close();
                } else {
                    latch.close();
                    raw.close();
                }
            } catch (Exception | Error e) {
                // a closed node closes again harmlessly or fails: cleanup only
            }
            proxy.close();
        }
    }

    /** A loopback TCP proxy to the ZooKeeper server; {@link #close()} drops every connection and the listener. */
    private static final class Proxy implements Closeable {
        private final ServerSocket listener;
        private final int target;
        /** Open sockets of both sides; added by the acceptor, closed by close(). */
        private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
        /** Set by close() before it closes the sockets; read by the acceptor. */
        private volatile boolean closed;

        Proxy(int target) throws IOException {
            this.target = target;
            this.listener = new ServerSocket();
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread acceptor = new Thread(this::accept, "failover-proxy-" + listener.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        private void accept() {
            while (!closed) {
                try {
                    Socket client = listener.accept();
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                    sockets.add(client);
                    sockets.add(upstream);
                    if (closed) {
                        client.close();
                        upstream.close();
                        return;
                    }
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    if (closed) {
                        return;
                    }
                }
            }
        }

        private void pump(Socket from, Socket to) {
            Thread t = new Thread(
                    () -> {
                        byte[] buffer = new byte[8192];
                        try (InputStream in = from.getInputStream();
                                OutputStream out = to.getOutputStream()) {
                            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                                out.write(buffer, 0, n);
                            }
                        } catch (IOException e) {
                            // either side closed
                        } finally {
                            closeSocket(from);
                            closeSocket(to);
                        }
                    },
                    "failover-proxy-pump");
            t.setDaemon(true);
            t.start();
        }

        private static void closeSocket(Socket socket) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing
            }
        }

        @Override
        public void close() {
            closed = true;
            try {
                listener.close();
            } catch (IOException e) {
                // closing
            }
            for (Socket socket : sockets) {
                closeSocket(socket);
            }
        }
    }
}
