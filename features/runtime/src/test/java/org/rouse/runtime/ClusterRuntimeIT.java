package org.rouse.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.runtime.itconsumer.ClusterConsumer;

/**
 * Two runtime JVMs (the shipped jar, each with its own {@code --conf} and bundle directory) join one real ZooKeeper
 * server (curator-test's {@link TestingServer} in this JVM). A test bundle in each ({@link ClusterConsumer}) hammers
 * the cluster lock {@value ClusterConsumer#LOCK} and reports every hold to a fencing store this test serves on a
 * loopback socket, and runs the whiteboard job {@value ClusterConsumer#JOB} with {@code scheduler.runOn=LEADER} every
 * second, reporting each run. Then the leader is killed with SIGKILL while it holds the lock; once the survivor has
 * taken over, a fresh runtime joins in the killed one's place, and while it follows the job runs on the survivor
 * alone; when the survivor stops, the newcomer leads alone.
 *
 * <p>Timing: the server ticks every {@value #TICK_MS} ms, so its {@code minSessionTimeout} is 2 ticks (1000 ms) and its
 * {@code maxSessionTimeout} 20 ticks (10000 ms); the nodes ask for {@value #SESSION_MS} ms, which lies between and is
 * granted as asked. The server expires a session at the first tick boundary at or after the timeout since it last
 * heard from the client, so a take-over may come up to one tick after the timeout.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterRuntimeIT {

    static final int TICK_MS = 500;
    static final int MIN_SESSION_MS = 2 * TICK_MS;
    static final int MAX_SESSION_MS = 20 * TICK_MS;
    static final int SESSION_MS = 4_000;
    static final int PERIOD_MS = 1_000;
    /** Slack for the survivor's leader latch to hear of the deletion and its next due run to reach the pool. */
    static final int HAND_OFF_MS = 500;
    /** Runs watched while the rejoined node follows, one per period. */
    static final int REJOINED_PERIODS = 5;
    /** Namespace and path of the lock's znodes (cluster.md: /locks/<name> under the namespace). */
    static final String LOCK_PATH = "/rouse/locks/" + ClusterConsumer.LOCK;

    @TempDir
    Path temp;

    @Test
    void oneLockHolderAndOneLeaderThroughAKillAfterWhichTheSessionExpiresAndARejoinedNodeFollows() throws Exception {
        assertTrue(SESSION_MS >= MIN_SESSION_MS && SESSION_MS <= MAX_SESSION_MS, "the server would narrow the timeout");
        try (TestingServer zk = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MS, -1), true);
                FencedStore store = new FencedStore();
                ZooKeeper observer = connect(zk.getConnectString())) {
            Path runtimeJar = runtimeJar();
            ForkedRuntime a = node("A", runtimeJar, zk.getConnectString(), store.port());
            ForkedRuntime b = node("B", runtimeJar, zk.getConnectString(), store.port());
            Map<String, ForkedRuntime> nodes = Map.of("A", a, "B", b);
            try (a;
                    b) {
                // both joined: each has held the lock, and the job runs on one node (its placement bound on both)
                await().atMost(Duration.ofSeconds(60)).until(() -> store.holds("A") >= 3 && store.holds("B") >= 3);
                // rouse:jobs tells where the job runs: LEADER(here) on exactly one node, (elsewhere) on the other, and
                // rouse:cluster on the other node agrees. Only the test job's line counts: the example script host's
                // own leader job has a latch of its own and may well lead on the other node. Leadership may still move
                // while the nodes settle, so the
                // three readings are taken together and retried until they agree, not read one after the other.
                AtomicReference<String> settledLeader = new AtomicReference<>();
                AtomicReference<String> lastSeen = new AtomicReference<>("");
                try {
                    await().atMost(Duration.ofSeconds(30)).until(() -> {
                        String onA = jobLine(a.shell("rouse:jobs"));
                        String onB = jobLine(b.shell("rouse:jobs"));
                        lastSeen.set("rouse:jobs on A:\n" + onA + "\nrouse:jobs on B:\n" + onB);
                        String here;
                        if (onA.contains("runOn=LEADER(here)") && onB.contains("runOn=LEADER(elsewhere)")) {
                            here = "A";
                        } else if (onB.contains("runOn=LEADER(here)") && onA.contains("runOn=LEADER(elsewhere)")) {
                            here = "B";
                        } else {
                            return false;
                        }
                        String status = nodes.get(here.equals("A") ? "B" : "A").shell("rouse:cluster");
                        lastSeen.set("rouse:cluster on the other node:\n" + status);
                        if (!status.matches("(?s).*job  it-leader +LEADER leader here: no +leader \\S+\\R.*")) {
                            return false;
                        }
                        settledLeader.set(here);
                        return true;
                    });
                } catch (ConditionTimeoutException e) {
                    throw new AssertionError("the nodes never agreed on one leader; last seen:\n" + lastSeen.get(), e);
                }
                assertNotNull(settledLeader.get(), lastSeen.get());
                String leader = settledLeader.get();
                String other = leader.equals("A") ? "B" : "A";

                // steady state: six runs in a row on the leader, one per period
                int from = store.runs().size();
                await().atMost(Duration.ofSeconds(20)).until(() -> store.runs().size() >= from + 6);
                List<Run> steady = store.runs().subList(from, from + 6);
                for (int i = 0; i < steady.size(); i++) {
                    assertEquals(leader, steady.get(i).node(), "runs " + steady);
                    if (i > 0) {
                        long gap = steady.get(i).millis() - steady.get(i - 1).millis();
                        // fixed rate: a gap shorter than half a period is a second runner, a longer one a lost run
                        assertTrue(gap >= PERIOD_MS / 2 && gap <= PERIOD_MS * 3 / 2, "gap " + gap + " ms in " + steady);
                    }
                }

                // kill -9 the leader while it holds the lock (from inside its BEGIN, before the reply it waits for)
                Kill kill = store.killAtNextBegin(leader, () -> {
                    String holder = lowestChild(observer);
                    int exit = nodes.get(leader).kill();
                    return new Object[] {holder, exit};
                });
                await().atMost(Duration.ofSeconds(30)).until(kill::done);
                assertEquals(137, kill.exitCode(), "exit code of a JVM ended by SIGKILL (128 + 9)");
                assertFalse(nodes.get(leader).isAlive(), "the killed runtime is gone");
                assertNotNull(kill.holderNode(), "the killed node's lock znode");

                // the survivor gets the lock after the dead node's session expired, with a larger token
                Grant next = store.awaitGrantAfterKill(Duration.ofSeconds(30));
                assertEquals(other, next.node());
                assertTrue(next.token() > kill.token(), "token " + next.token() + " after " + kill.token());
                long grantAfterKill = TimeUnit.NANOSECONDS.toMillis(next.nanos() - kill.nanos());
                assertTrue(
                        grantAfterKill >= SESSION_MS - 250,
                        "granted " + grantAfterKill + " ms after the kill, before a " + SESSION_MS + " ms session could"
                                + " expire");
                assertNull(
                        observer.exists(kill.holderNode(), false),
                        "the killed node's lock znode " + kill.holderNode() + " still exists");

                // and the leader job resumes there within the session timeout plus one period, plus the tick the
                // server's expiry may round up to and HAND_OFF_MS for the latch's watch event and the timer hand-off
                await().atMost(Duration.ofSeconds(30)).until(() -> store.runAfter(kill.nanos(), other) != null);
                Run resumed = store.runAfter(kill.nanos(), other);
                long resumedAfterKill = TimeUnit.NANOSECONDS.toMillis(resumed.nanos() - kill.nanos());
                assertTrue(
                        resumedAfterKill <= SESSION_MS + TICK_MS + PERIOD_MS + HAND_OFF_MS,
                        "runs resumed " + resumedAfterKill + " ms after the kill");
                String survivorStatus = nodes.get(other).shell("rouse:cluster");
                assertTrue(
                        survivorStatus.matches(
                                "(?s).*job  it-leader +LEADER leader here: yes +leader \\S+ \\(this node\\).*"),
                        survivorStatus);
                assertTrue(survivorStatus.contains("lock cluster.it"), survivorStatus);
                System.out.printf(
                        "[test] lock granted to %s %d ms after the kill (token %d > %d); job resumed on %s after %d"
                                + " ms; %d holds, %d writes accepted%n",
                        other,
                        grantAfterKill,
                        next.token(),
                        kill.token(),
                        other,
                        resumedAfterKill,
                        store.holds("A") + store.holds("B"),
                        store.accepted());

                // a fresh runtime rejoins in the killed node's place, as a follower: while it is a live candidate
                // of the job's latch the job runs on the survivor only (a second leader would add runs of its own)
                String rejoined = leader + "2";
                try (ForkedRuntime replacement = node(rejoined, runtimeJar, zk.getConnectString(), store.port())) {
                    await().atMost(Duration.ofSeconds(60)).until(() -> store.holds(rejoined) >= 3);
                    await().atMost(Duration.ofSeconds(30))
                            .until(() ->
                                    jobLine(replacement.shell("rouse:jobs")).contains("runOn=LEADER(elsewhere)"));
                    String rejoinedStatus = replacement.shell("rouse:cluster");
                    assertTrue(
                            rejoinedStatus.matches("(?s).*job  it-leader +LEADER leader here: no +leader \\S+\\R.*"),
                            rejoinedStatus);
                    long settled = System.nanoTime();
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> store.runs().stream()
                                            .filter(run -> run.nanos() > settled)
                                            .count()
                                    >= REJOINED_PERIODS);
                    List<Run> window = store.runs().stream()
                            .filter(run -> run.nanos() > settled)
                            .toList();
                    assertOneRunner(other, window);

                    // the survivor stops cleanly: its latch node goes at once, the rejoined node leads, and from its
                    // first run on no other node runs the job
                    assertEquals(List.of(), store.errors());
                    // the store accepts no token lower than one it accepted; none was even offered
                    assertEquals(List.of(), store.rejected(), "stale writes: tokens lower than one accepted before");
                    long stopping = System.nanoTime();
                    assertEquals(0, nodes.get(other).stop());
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> store.runs().stream()
                                            .filter(run -> run.nanos() > stopping
                                                    && run.node().equals(rejoined))
                                            .count()
                                    >= 3);
                    List<Run> handOver = store.runs().stream()
                            .filter(run -> run.nanos() > stopping)
                            .toList();
                    int firstRejoined = handOver.indexOf(store.runAfter(stopping, rejoined));
                    assertOneRunner(rejoined, handOver.subList(firstRejoined, handOver.size()));
                    System.out.printf(
                            "[test] rejoined node %s: %d runs on %s alone while it followed; led %d ms after %s began"
                                    + " to stop%n",
                            rejoined,
                            window.size(),
                            other,
                            TimeUnit.NANOSECONDS.toMillis(
                                    handOver.get(firstRejoined).nanos() - stopping),
                            other);

                    // fencing and exclusion over the whole run, the rejoined node included
                    int before = store.holds(rejoined);
                    await().atMost(Duration.ofSeconds(20)).until(() -> store.holds(rejoined) >= before + 5);
                    // the only errors since: the stopping survivor's hammer finding its provider closed (the cluster
                    // bundle may stop before the test bundle)
                    assertEquals(
                            List.of(),
                            store.errors().stream()
                                    .filter(e -> !e.startsWith("ERROR " + other
                                            + " java.lang.IllegalStateException: The cluster lock provider"))
                                    .toList());
                    // since: only the stopping survivor may have offered a lower token, from a hold its own stop
                    // ended (the rejoined node was granted meanwhile), and it knew the hold invalid
                    assertEquals(
                            List.of(),
                            store.rejected().stream()
                                    .filter(w -> !w.startsWith(other + " ") || !w.endsWith(" false"))
                                    .toList(),
                            "stale writes: tokens lower than one accepted before");
                    assertEquals(0, store.tokenRegressions(), "grants whose token did not grow");
                    assertEquals(0, store.overlaps(), "moments with two holders both reporting isValid()");
                    System.out.printf("[test] writes rejected after %s stopped: %s%n", other, store.rejected());
                    assertEquals(0, replacement.stop());
                }
            }
        }
    }

    /** The line of {@code rouse:jobs} output that describes the test job {@value ClusterConsumer#JOB}, or "". */
    static String jobLine(String jobsOutput) {
        return jobsOutput
                .lines()
                .filter(line -> line.matches("(.*\\s)?" + ClusterConsumer.JOB + "\\s.*"))
                .findFirst()
                .orElse("");
    }

    /** Asserts that every run in {@code runs} is {@code node}'s. */
    private static void assertOneRunner(String node, List<Run> runs) {
        assertEquals(List.of(node), runs.stream().map(Run::node).distinct().toList(), "runs " + runs);
    }

    /** A runtime with its own conf and bundle directories, the consumer bundle added at start level 5. */
    private ForkedRuntime node(String name, Path runtimeJar, String connect, int storePort) throws IOException {
        Path conf = Files.createDirectories(temp.resolve(name + "/conf"));
        Files.writeString(
                conf.resolve("org.rouse.cluster.cfg"),
                "connect.string = " + connect + "\nsession.timeout.ms = " + SESSION_MS
                        + "\nconnection.timeout.ms = 2000\n");
        Files.writeString(conf.resolve("org.rouse.examples.resp.cfg"), "port = 0\n");
        Files.writeString(conf.resolve("org.rouse.examples.scripts.cfg"), "scripts = 1\nreport.interval.s = 3600\n");
        Path bundles = Files.createDirectories(temp.resolve(name + "/bundles/5"));
        consumerBundle(bundles.resolve("it-consumer-" + name + ".jar"), name, storePort);
        return new ForkedRuntime(runtimeJar, "--conf=" + conf, "--extract=" + bundles.getParent(), "--no-web");
    }

    private Path runtimeJar() throws IOException {
        Path built = Path.of(System.getProperty("rouse.runtime.jar", "target/rouse-runtime.jar"));
        assertTrue(Files.isRegularFile(built), "runtime jar not built: " + built.toAbsolutePath());
        Path home = Files.createDirectories(temp.resolve("home"));
        return Files.copy(built, home.resolve("rouse-runtime.jar"));
    }

    /** The test bundle: the compiled classes of {@link ClusterConsumer}'s package and a manifest, no bnd needed. */
    static void consumerBundle(Path jar, String node, int port) throws IOException {
        Path classes;
        try {
            classes = Path.of(ClusterConsumer.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        String packagePath = ClusterConsumer.class.getPackageName().replace('.', '/');
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", "it.consumer." + node);
        main.putValue("Bundle-Version", "1.0.0");
        main.putValue("Bundle-Activator", ClusterConsumer.class.getName());
        main.putValue("Import-Package", "org.osgi.framework,org.rouse.lock");
        main.putValue(ClusterConsumer.NODE_HEADER, node);
        main.putValue(ClusterConsumer.PORT_HEADER, Integer.toString(port));
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                Stream<Path> files = Files.list(classes.resolve(packagePath))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                out.putNextEntry(new JarEntry(packagePath + "/" + file.getFileName()));
                try (InputStream in = Files.newInputStream(file)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
    }

    private static ZooKeeper connect(String connect) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(20, TimeUnit.SECONDS), "observer connected to " + connect);
        return zk;
    }

    /** The lock node that holds the lock now: the lowest sequence suffix under the lock's path (Curator's order). */
    private static String lowestChild(ZooKeeper zk) throws Exception {
        List<String> children = zk.getChildren(LOCK_PATH, false);
        String lowest = children.stream()
                .min(Comparator.comparing((String child) -> child.substring(child.length() - 10)))
                .orElseThrow(() -> new AssertionError("no lock node under " + LOCK_PATH));
        String path = LOCK_PATH + "/" + lowest;
        Stat stat = zk.exists(path, false);
        assertTrue(stat != null && stat.getEphemeralOwner() != 0, "ephemeral lock node " + path);
        return path;
    }

    /** One run of the leader job as the store received it. */
    record Run(String node, long millis, long nanos) {}

    /** One grant: the first BEGIN of a hold. */
    record Grant(String node, long token, long nanos) {}

    /** What a kill inside a BEGIN recorded. */
    interface KillAction {
        Object[] run() throws Exception;
    }

    /** The kill of a node from inside its BEGIN; filled in by the store's handler thread. */
    static final class Kill {
        private final String node;
        private final KillAction action;
        /** Written once by the handler thread, then {@link #done} set; volatile publication. */
        private volatile long token;

        private volatile long nanos;
        private volatile String holderNode;
        private volatile int exitCode = -1;
        private volatile boolean done;

        Kill(String node, KillAction action) {
            this.node = node;
            this.action = action;
        }

        boolean done() {
            return done;
        }

        long token() {
            return token;
        }

        long nanos() {
            return nanos;
        }

        String holderNode() {
            return holderNode;
        }

        int exitCode() {
            return exitCode;
        }
    }

    /**
     * The fencing store: accepts a write only with a token at least as large as every token it accepted before, counts
     * grants whose token did not grow, and moments with two holders both reporting {@code isValid()}. One thread per
     * connection; every request is handled under the store's monitor, so the order of handling is one timeline.
     */
    static final class FencedStore implements AutoCloseable {
        private final ServerSocket server;
        private final Thread acceptor;
        /** The connections' threads; copy-on-write, closed on close(). */
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        /** Unexpected lines and errors the consumers reported; copy-on-write. */
        private final List<String> errors = new CopyOnWriteArrayList<>();

        // guarded by this
        private long highest = Long.MIN_VALUE;
        private long highestGrant = Long.MIN_VALUE;
        private long accepted;
        /** The rejected writes, as "node token valid". */
        private final List<String> rejected = new ArrayList<>();

        private long tokenRegressions;
        private long overlaps;
        private long sequence;
        private final Map<String, Integer> holds = new HashMap<>();
        /** Per node with an open hold: the sequence number of its BEGIN, if it was valid then. */
        private final Map<String, Long> openValidSince = new HashMap<>();
        /** Per node: the sequence number of its last message reporting a valid hold. */
        private final Map<String, Long> lastValid = new HashMap<>();
        /** Which node each connection speaks for (learned from its first line); only for dropping dead holds. */
        private final Map<Socket, String> speaker = new HashMap<>();

        private final List<Run> runs = new ArrayList<>();
        private Kill kill;
        private Grant grantAfterKill;

        FencedStore() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(this::accept, "it-store-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    sockets.add(socket);
                    Thread t = new Thread(() -> serve(socket), "it-store-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        private void serve(Socket socket) {
            try (socket;
                    BufferedReader in =
                            new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                    Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null; ) {
                    out.write(handle(socket, line) + "\n");
                    out.flush();
                }
            } catch (IOException e) {
                // the node died or the store closed
            } finally {
                connectionClosed(socket);
            }
        }

        /** A process whose connection closed holds nothing it can act on: its open hold is dropped. */
        private synchronized void connectionClosed(Socket socket) {
            String node = speaker.remove(socket);
            if (node != null) {
                openValidSince.remove(node);
            }
        }

        private synchronized String handle(Socket socket, String line) {
            String[] f = line.split(" ", 4);
            long now = System.nanoTime();
            long seq = ++sequence;
            String node = f.length > 1 ? f[1] : "?";
            switch (f[0]) {
                case "RUN" -> {
                    runs.add(new Run(node, TimeUnit.NANOSECONDS.toMillis(now), now));
                    return "OK";
                }
                case "BEGIN", "END" -> {
                    speaker.putIfAbsent(socket, node);
                    long token = Long.parseLong(f[2]);
                    boolean valid = Boolean.parseBoolean(f[3]);
                    boolean begin = f[0].equals("BEGIN");
                    if (begin) {
                        if (token <= highestGrant) {
                            tokenRegressions++;
                        }
                        highestGrant = Math.max(highestGrant, token);
                        holds.merge(node, 1, Integer::sum);
                        if (valid) {
                            openValidSince.put(node, seq);
                        }
                        if (kill != null && grantAfterKill == null && kill.done && !node.equals(kill.node)) {
                            grantAfterKill = new Grant(node, token, now);
                        }
                    } else {
                        Long since = openValidSince.remove(node);
                        if (valid && since != null) {
                            // this hold was valid from its BEGIN to now: another node reporting a valid hold
                            // meanwhile means two valid holders at that moment
                            for (Map.Entry<String, Long> e : lastValid.entrySet()) {
                                if (!e.getKey().equals(node) && e.getValue() > since) {
                                    overlaps++;
                                }
                            }
                        }
                    }
                    if (valid) {
                        lastValid.put(node, seq);
                    }
                    String reply = write(node, token, valid);
                    if (begin && kill != null && !kill.done && node.equals(kill.node)) {
                        runKill(token);
                    }
                    return reply;
                }
                default -> {
                    errors.add(line);
                    return "OK";
                }
            }
        }

        /** Fencing: a token lower than the highest accepted is rejected. */
        private String write(String node, long token, boolean valid) {
            if (token < highest) {
                rejected.add(node + " " + token + " " + valid);
                return "REJECTED";
            }
            highest = token;
            accepted++;
            return "OK";
        }

        private void runKill(long token) {
            try {
                Object[] result = kill.action.run();
                kill.holderNode = (String) result[0];
                kill.exitCode = (Integer) result[1];
            } catch (Exception e) {
                errors.add("kill failed: " + e);
            }
            kill.token = token;
            kill.nanos = System.nanoTime();
            kill.done = true;
        }

        synchronized Kill killAtNextBegin(String node, KillAction action) {
            kill = new Kill(node, action);
            return kill;
        }

        Grant awaitGrantAfterKill(Duration atMost) {
            await().atMost(atMost).until(() -> grantAfterKill() != null);
            return grantAfterKill();
        }

        private synchronized Grant grantAfterKill() {
            return grantAfterKill;
        }

        synchronized List<Run> runs() {
            return List.copyOf(runs);
        }

        synchronized Run runAfter(long nanos, String node) {
            return runs.stream()
                    .filter(run -> run.nanos() > nanos && run.node().equals(node))
                    .findFirst()
                    .orElse(null);
        }

        synchronized int holds(String node) {
            return holds.getOrDefault(node, 0);
        }

        synchronized long accepted() {
            return accepted;
        }

        synchronized List<String> rejected() {
            return List.copyOf(rejected);
        }

        synchronized long tokenRegressions() {
            return tokenRegressions;
        }

        synchronized long overlaps() {
            return overlaps;
        }

        List<String> errors() {
            return List.copyOf(errors);
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }
}
