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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.runtime.itconsumer.ClusterConsumer;

/**
 * Two runtime JVMs (the shipped jar, each with its own {@code --conf} and bundle directory) join one real ZooKeeper
 * server (curator-test's {@link TestingServer} in this JVM). A test bundle in each ({@link ClusterConsumer}) hammers
 * the cluster lock {@value ClusterConsumer#LOCK} and reports every hold to a fencing store this test serves on a
 * loopback socket, and runs the whiteboard job {@value ClusterConsumer#JOB} with {@code scheduler.runOn=LEADER} every
 * second, reporting each run. Then the leader is killed with SIGKILL while it holds the lock.
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
    /** Namespace and path of the lock's znodes (cluster.md: /locks/<name> under the namespace). */
    static final String LOCK_PATH = "/rouse/locks/" + ClusterConsumer.LOCK;

    @TempDir
    Path temp;

    @Test
    void oneLockHolderAndOneLeaderAcrossTwoRuntimesAndTheSurvivorTakesOverOnlyAfterTheKilledNodesSessionExpired()
            throws Exception {
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
                // rouse:jobs tells where the job runs: LEADER(here) on exactly one node, (elsewhere) on the other
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    String onA = a.shell("rouse:jobs");
                    String onB = b.shell("rouse:jobs");
                    return (onA.contains("runOn=LEADER(here)") && onB.contains("runOn=LEADER(elsewhere)"))
                            || (onB.contains("runOn=LEADER(here)") && onA.contains("runOn=LEADER(elsewhere)"));
                });
                String leader = a.shell("rouse:jobs").contains("runOn=LEADER(here)") ? "A" : "B";
                String other = leader.equals("A") ? "B" : "A";
                String otherStatus = nodes.get(other).shell("rouse:cluster");
                assertTrue(
                        otherStatus.matches("(?s).*job  it-leader +LEADER leader here: no +leader \\S+\\R.*"),
                        otherStatus);

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
                long runsElsewhereAfterKill = store.runs().stream()
                        .filter(run -> run.nanos() > kill.nanos() && !run.node().equals(other))
                        .count();
                assertEquals(0, runsElsewhereAfterKill, "runs after the kill not on " + other);
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

                // fencing and exclusion over the whole run
                int before = store.holds(other);
                await().atMost(Duration.ofSeconds(20)).until(() -> store.holds(other) >= before + 5);
                assertEquals(List.of(), store.errors());
                // the store accepts no token lower than one it accepted; none was even offered
                assertEquals(0, store.rejected(), "stale writes: tokens lower than one accepted before");
                assertEquals(0, store.tokenRegressions(), "grants whose token did not grow");
                assertEquals(0, store.overlaps(), "moments with two holders both reporting isValid()");
                assertEquals(0, nodes.get(other).stop());
            }
        }
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
        private long rejected;
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
                    String reply = write(token);
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
        private String write(long token) {
            if (token < highest) {
                rejected++;
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

        synchronized long rejected() {
            return rejected;
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
