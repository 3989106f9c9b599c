package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ChannelShell;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshException;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * The {@code rouse} shell commands in a real Apache Karaf: the distribution's tar.gz (a test dependency, so Maven
 * fetches it) is unpacked under {@code target/}, started with {@code bin/karaf server} on free ports, given this
 * build's bundles and feature repository, and driven over ssh as an operator would: exec channels for commands (as
 * {@code bin/client "<command>"} and {@code ssh host <command>} run them) and an interactive shell channel with a
 * terminal for TAB completion. Karaf is stopped after the class, whatever happened.
 *
 * <p>Checks: the Action commands' {@code help} (descriptions, arguments), each command's report, a usage error, that
 * {@code rouse:strategy} persists to {@code etc/org.rouse.lock.cfg}, the command ACL of the {@code rouse-api} feature
 * (a viewer may read reports but not change a strategy, like {@code config:edit}, and does not see it in
 * {@code help}), and completion of command arguments. That Karaf runs the Action and not a Gogo function of the same
 * name shows in {@code --help} (a function would take it for its argument) and in completion (a function has none).
 */
public class KarafShellIT {

    /*
     * Implementation notes.
     *
     * Layout. This build's jars and feature XML are copied into Karaf's system/ folder in Maven layout: Karaf's
     * pax-url resolves mvn: URLs from its default repositories (system/ first) before the local Maven repository, so
     * the test runs these jars whatever an older install left in ~/.m2, and needs no mvn install. Everything else
     * (scr) comes from the local repository or Maven Central as in any Karaf.
     *
     * Costs. One Karaf start (~10 s) and one feature install (~10 s) for the whole class; each command is one ssh exec
     * channel on its own session (Karaf ends the session with the command), so no JVM is started per command
     * (bin/client would start one each time).
     *
     * Stalls. A login that gets no answer within COMMAND is tried once more on a fresh connection; each stall leaves
     * Karaf's thread dump in target/karaf-shell-it/, and a second stall fails with a summary of Karaf's ssh threads.
     */

    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration COMMAND = Duration.ofSeconds(30);
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");

    /** Every test is bounded; Karaf's start and stop are bounded by their own timeouts. */
    @Rule
    public final Timeout timeout = new Timeout(2, TimeUnit.MINUTES);

    /** The ports handed to Karaf; written and read by the JUnit thread only. */
    private static final Set<Integer> PORTS = new HashSet<>();

    private static Path karaf;
    private static Process process;
    private static SshClient client;
    private static int sshPort;

    @BeforeClass
    public static void startKaraf() throws Exception {
        String version = System.getProperty("rouse.version");
        String karafVersion = System.getProperty("karaf.version");
        Path tar = Path.of(System.getProperty("karaf.tar.gz"));
        assertTrue("the Karaf distribution " + tar + " (a test dependency of itests)", Files.isRegularFile(tar));
        Path base = Path.of("target", "karaf-shell-it").toAbsolutePath();
        deleteRecursively(base);
        Files.createDirectories(base);
        run(base, "tar", "xzf", tar.toString(), "-C", base.toString());
        karaf = base.resolve("apache-karaf-" + karafVersion);

        installThisBuild(version);
        sshPort = freePort();
        edit("etc/org.apache.karaf.shell.cfg", "(?m)^sshPort\\s*=.*$", "sshPort = " + sshPort);
        edit("etc/org.apache.karaf.management.cfg", "(?m)^rmiRegistryPort\\s*=.*$", "rmiRegistryPort = " + freePort());
        edit("etc/org.apache.karaf.management.cfg", "(?m)^rmiServerPort\\s*=.*$", "rmiServerPort = " + freePort());
        // the distribution ships with its sample admin user commented out: enable it, and add one that may only look
        edit("etc/users.properties", "(?m)^#karaf = karaf,", "karaf = karaf,");
        edit("etc/users.properties", "(?m)^#_g_\\\\:admingroup", "_g_\\\\:admingroup");
        Files.writeString(karaf.resolve("etc/users.properties"), "ops = ops,viewer,ssh\n", StandardOpenOption.APPEND);
        // the examples: the RESP server on any free port, a few scripts that do not print every second
        Files.writeString(karaf.resolve("etc/org.rouse.examples.resp.cfg"), "port = 0\n");
        Files.writeString(
                karaf.resolve("etc/org.rouse.examples.scripts.cfg"), "scripts = 20\nreport.interval.s = 3600\n");

        ProcessBuilder builder = new ProcessBuilder(karaf.resolve("bin/karaf").toString(), "server")
                .directory(karaf.toFile())
                .redirectErrorStream(true)
                .redirectOutput(base.resolve("console.out").toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        process = builder.start();

        client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier(AcceptAllServerKeyVerifier.INSTANCE);
        client.start();
        // the ssh server starts once the shell feature is up; until then connections are refused
        awaitOutput(
                "the shell feature installed", () -> exec("karaf", "feature:list -i"), out -> out.contains("shell"));

        String repo = exec("karaf", "feature:repo-add mvn:org.rouse/rouse-features/" + version + "/xml/features");
        String install = exec("karaf", "feature:install rouse");
        awaitOutput(
                "the examples' timers, job and connections (after feature:repo-add: '" + repo
                        + "', feature:install rouse: '" + install + "')",
                () -> exec("karaf", "rouse:timers") + exec("karaf", "rouse:jobs") + exec("karaf", "rouse:connections"),
                out -> out.contains("org.rouse.examples.scripts")
                        && out.contains("scripts-minute-summary")
                        && out.contains("org.rouse.examples.resp"));
    }

    @AfterClass
    public static void stopKaraf() throws Exception {
        try {
            if (client != null) {
                client.stop();
            }
        } finally {
            if (process != null) {
                try {
                    new ProcessBuilder(karaf.resolve("bin/stop").toString())
                            .directory(karaf.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start()
                            .waitFor(30, TimeUnit.SECONDS);
                    if (!process.waitFor(30, TimeUnit.SECONDS)) {
                        kill();
                    }
                } finally {
                    kill();
                }
            }
        }
    }

    @Test
    public void helpDescribesTheCommandAndItsArgument() throws Exception {
        try (Console console = new Console("karaf")) {
            String help = console.run("help rouse:late", "default 10)");
            assertThat(help, containsString("The n timer owners whose handlers started latest after their deadline"));
            assertThat(help, containsString("rouse:late [n]"));
            assertThat(help, containsString("how many owners to show (0 to 100000; default 10)"));
        }
        // Karaf prints no help over an exec channel (bin/client "help ...") for any command; --help works there. It
        // also shows that the Action runs: a Gogo function of the same name would take "--help" for its argument.
        String late = exec("karaf", "rouse:late --help");
        assertThat(late, containsString("The n timer owners whose handlers started latest after their deadline"));
        assertThat(late, containsString("how many owners to show (0 to 100000; default 10)"));
        assertThat(exec("karaf", "rouse:strategy --help"), containsString("rouse:strategy <lock> <strategy>:"));
    }

    @Test
    public void helpListsEveryCommandWithItsDescription() throws Exception {
        String list;
        try (Console console = new Console("karaf")) {
            list = console.run("help rouse:", "rouse:trigger ");
        }
        for (String command : List.of(
                "timers",
                "late",
                "running",
                "selector",
                "connections",
                "locks",
                "contended",
                "strategy",
                "jobs",
                "trigger")) {
            assertEquals(
                    "rouse:" + command + " listed with a description in:\n" + list,
                    1,
                    count(list, "(?m)^rouse:" + command + "\\s+\\|\\s+\\S"));
        }
    }

    @Test
    public void eachCommandPrintsItsReport() throws Exception {
        assertLine(exec("karaf", "rouse:timers"), "engine wheel, dispatcher wakeups [0-9]+.*");
        assertLine(exec("karaf", "rouse:late 3"), "org\\.rouse\\.examples\\.scripts\\[[0-9]+\\] +script.*");
        assertLine(exec("karaf", "rouse:running"), "bundle +owner +timer +running \\(ms\\)");
        assertLine(exec("karaf", "rouse:selector"), "engine nio-.*");
        assertLine(exec("karaf", "rouse:connections"), "org\\.rouse\\.examples\\.resp\\[[0-9]+\\] +0 +1 +0");
        assertLine(exec("karaf", "rouse:connections org.rouse.examples.resp"), "listening +/127\\.0\\.0\\.1:[0-9]+ .*");
        assertLine(exec("karaf", "rouse:locks 2"), "engine strategies, strategies .*");
        assertLine(exec("karaf", "rouse:contended"), "lock +strategy +acquired.*");
        assertLine(exec("karaf", "rouse:jobs"), "scripts-minute-summary .*");
        assertThat(exec("karaf", "rouse:trigger scripts-minute-summary"), containsString("job scripts-minute-summary"));
        assertLine(exec("karaf", "rouse:timers reset"), "timer statistics reset");
        assertLine(exec("karaf", "rouse:selector reset"), "selector statistics reset");
    }

    @Test
    public void aBadArgumentGivesTheUsage() throws Exception {
        String top = exec("karaf", "rouse:locks top");
        assertThat(
                top,
                containsString("n must be a whole number from 0 to 100000, not 'top'; usage: rouse:locks [n | reset]"));
        assertThat(top, not(containsString("Cannot coerce")));
        assertThat(exec("karaf", "rouse:late 1 2"), containsString("too many arguments"));
        assertThat(
                exec("karaf", "rouse:strategy fast"),
                containsString(
                        "unknown strategy 'fast'; the active lock engine (strategies) offers adaptive, fair, jdk,"
                                + " spin-yield"));
    }

    @Test
    public void strategyPersistsAndNeedsTheManagerRole() throws Exception {
        assertLine(exec("ops", "rouse:timers"), "engine wheel.*");
        assertLine(exec("ops", "rouse:strategy jdk"), "Command not found: .*rouse:strategy.*");
        assertLine(exec("ops", "config:edit org.rouse.lock"), "Command not found: .*config:edit.*");
        try (Console console = new Console("ops")) {
            String list = console.run("help rouse:", "rouse:trigger ");
            assertThat("hidden from a viewer", list, not(containsString("rouse:strategy")));
            assertThat(list, containsString("rouse:timers "));
        }

        assertLine(exec("karaf", "rouse:strategy fair"), "org\\.rouse\\.lock: strategy = fair .*");
        Path cfg = karaf.resolve("etc/org.rouse.lock.cfg");
        Pattern fair = Pattern.compile("(?m)^strategy\\s*=\\s*fair\\s*$");
        // Just after start-up Karaf's fileinstall loads etc/org.rouse.lock.cfg, writes the configuration back to it and
        // reads it again a poll later. A change made in between is overwritten by the file's older content (Karaf's log
        // then shows strategy=fair from the command and, 13 ms later, strategy=adaptive from the file), so the command
        // is given again whenever the configuration has lost it; the file must end up holding it.
        await().atMost(COMMAND).pollInterval(Duration.ofSeconds(2)).until(() -> {
            if (Files.isRegularFile(cfg) && fair.matcher(Files.readString(cfg)).find()) {
                return true;
            }
            if (!exec("karaf", "config:property-list --pid org.rouse.lock").contains("strategy = fair")) {
                exec("karaf", "rouse:strategy fair");
            }
            return false;
        });
        assertThat(exec("karaf", "config:property-list --pid org.rouse.lock"), containsString("strategy = fair"));
        assertLine(exec("karaf", "rouse:strategy"), "default strategy fair, .*");
    }

    @Test
    public void tabCompletesArguments() throws Exception {
        try (Console console = new Console("karaf")) {
            String strategies = console.complete("rouse:strategy ", "spin-yield");
            assertThat(strategies, containsString("adaptive"));
            assertThat(strategies, containsString("fair"));
            assertThat(strategies, containsString("jdk"));
            assertThat("the live locks of the RESP example", strategies, containsString("keyspace#0"));

            String second = console.complete("rouse:strategy keyspace#3 ", "spin-yield");
            assertThat("only strategies after a lock", second, not(containsString("keyspace#0")));

            assertThat(console.complete("rouse:timers r", "reset"), containsString("rouse:timers reset"));
            assertThat(
                    console.complete("rouse:trigger scr", "scripts-minute-summary"),
                    containsString("rouse:trigger scripts-minute-summary"));
            assertThat(
                    console.complete("rouse:connections org.rouse.ex", "org.rouse.examples.resp"),
                    containsString("rouse:connections org.rouse.examples.resp"));
        }
    }

    /**
     * Polls {@code probe} until its output satisfies {@code done}, within {@link #STARTUP}; fails with the last output
     * (or the last error) so that a log says what Karaf answered.
     */
    private static void awaitOutput(String what, Callable<String> probe, Predicate<String> done) {
        AtomicReference<String> last = new AtomicReference<>("nothing yet");
        try {
            await().atMost(STARTUP).pollInterval(Duration.ofMillis(500)).until(() -> {
                try {
                    String out = probe.call();
                    last.set("'" + out + "'");
                    return done.test(out);
                } catch (Exception e) {
                    last.set(e.toString());
                    return false;
                }
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    what + ": not within " + STARTUP.toSeconds() + " s; Karaf's last answer: " + last, e);
        }
    }

    /** Runs {@code command} as {@code user} (password = user name) over an ssh exec channel; its output and errors. */
    private static String exec(String user, String command) throws IOException {
        // one session per command: Karaf ends the session when an exec'd command ends
        try (ClientSession session = login(user);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                // Karaf ends an exec'd command when its input ends: keep the input open until the command is done
                PipedOutputStream input = new PipedOutputStream();
                PipedInputStream in = new PipedInputStream(input);
                ChannelExec channel = session.createExecChannel(command)) {
            channel.setIn(in);
            channel.setOut(out);
            channel.setErr(out);
            channel.open().verify(COMMAND);
            channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), COMMAND);
            return ANSI.matcher(out.toString(StandardCharsets.UTF_8)).replaceAll("");
        }
    }

    /**
     * Logs in as {@code user}, once more on a fresh connection if the first attempt stalls. A stall is recorded with
     * Karaf's thread dump, and a second one fails with where Karaf's ssh threads were, so that a log says why.
     */
    private static ClientSession login(String user) throws IOException {
        for (int attempt = 1; ; attempt++) {
            ClientSession session =
                    client.connect(user, "127.0.0.1", sshPort).verify(COMMAND).getSession();
            try {
                session.addPasswordIdentity(user);
                session.auth().verify(COMMAND);
                return session;
            } catch (SshException stalled) {
                session.close(true);
                String threads = karafThreads(attempt);
                if (attempt == 2) {
                    throw new AssertionError(
                            "ssh login as " + user + " stalled twice (" + COMMAND.toSeconds() + " s each); " + threads,
                            stalled);
                }
            }
        }
    }

    /**
     * Writes Karaf's thread dump next to its console output and sums it up: whether the JVM reports a deadlock, and
     * the state and top frames of its ssh threads.
     */
    private static String karafThreads(int attempt) {
        try {
            ProcessHandle jvm = process.descendants()
                    .filter(p -> p.info().command().orElse("").endsWith("java"))
                    .findFirst()
                    .orElse(process.toHandle());
            Path dump = karaf.getParent().resolve("stall-" + attempt + "-threads.txt");
            Process jcmd = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(jvm.pid()),
                            "Thread.print",
                            "-l")
                    .redirectErrorStream(true)
                    .redirectOutput(dump.toFile())
                    .start();
            if (!jcmd.waitFor(30, TimeUnit.SECONDS)) {
                jcmd.destroyForcibly();
                return "jcmd " + jvm.pid() + " did not answer within 30 s (the JVM itself is stalled?)";
            }
            String text = Files.readString(dump);
            StringBuilder summary = new StringBuilder("Karaf's threads in ")
                    .append(dump)
                    .append(
                            text.contains("Found one Java-level deadlock")
                                    ? "; a Java-level DEADLOCK"
                                    : "; no deadlock");
            for (String thread : text.split("\n\n")) {
                if (thread.startsWith("\"sshd-") || thread.startsWith("\"Nio2") || thread.contains("KarafJaas")) {
                    // the thread's name, its state, and its first frames outside the JDK (where it waits, and for what)
                    String[] lines = thread.split("\n");
                    summary.append("\n  ").append(lines[0].replaceAll(" tid=.*", ""));
                    int shown = 0;
                    for (int i = 1; i < lines.length && shown < 3; i++) {
                        String line = lines[i].strip();
                        if (line.startsWith("java.lang.Thread.State")
                                || (line.startsWith("at ") && !line.matches("at (java|javax|jdk|sun)\\..*"))) {
                            summary.append("\n    ").append(line);
                            shown += line.startsWith("at ") ? 1 : 0;
                        }
                    }
                }
            }
            return summary.toString();
        } catch (IOException | InterruptedException e) {
            return "no thread dump of Karaf: " + e;
        }
    }

    /** An interactive Karaf console over an ssh shell channel with a terminal, as a user at a keyboard has. */
    private static final class Console implements AutoCloseable {
        private final ClientSession session;
        private final ChannelShell channel;
        private final OutputStream keys;
        /** Written by sshd's reader thread, read by the test thread: a StringBuffer orders them. */
        private final StringBuffer screen = new StringBuffer();

        Console(String user) throws IOException {
            session = login(user);
            channel = session.createShellChannel();
            channel.setPtyType("xterm");
            channel.setPtyColumns(400);
            channel.setPtyLines(50);
            PipedOutputStream typed = new PipedOutputStream();
            channel.setIn(new PipedInputStream(typed));
            OutputStream display = new OutputStream() {
                @Override
                public void write(int b) {
                    screen.append((char) b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    screen.append(new String(b, off, len, StandardCharsets.UTF_8));
                }
            };
            channel.setOut(display);
            channel.setErr(display);
            channel.open().verify(COMMAND);
            keys = typed;
            await().atMost(COMMAND).until(() -> plain().contains(user + "@root()>"));
        }

        /** Types {@code line} and Enter, waits until {@code expected} is shown after it, and returns what was shown. */
        String run(String line, String expected) throws IOException {
            int from = plain().length();
            type(line + "\r");
            await().atMost(COMMAND).until(() -> plain().substring(from).contains(expected));
            return plain().substring(from);
        }

        /**
         * Types {@code line} and a TAB, waits until {@code expected} is shown after it, and returns what the console
         * showed from the TAB on; then clears the line.
         */
        String complete(String line, String expected) throws IOException {
            int from = plain().length();
            type(line + "\t");
            await().atMost(COMMAND).until(() -> plain().substring(from).contains(expected));
            String shown = plain().substring(from);
            type("\u0015"); // Ctrl-U: clear the line for the next one
            return shown;
        }

        private void type(String text) throws IOException {
            keys.write(text.getBytes(StandardCharsets.UTF_8));
            keys.flush();
        }

        private String plain() {
            return ANSI.matcher(screen.toString()).replaceAll("");
        }

        @Override
        public void close() throws IOException {
            try {
                channel.close(false).await(COMMAND);
            } finally {
                session.close();
            }
        }
    }

    /** Copies this build's bundles and feature XML into Karaf's system/ folder (Maven layout). */
    private static void installThisBuild(String version) throws IOException {
        Path bundles = Path.of(System.getProperty("rouse.bundles.dir"));
        Path system = karaf.resolve("system/org/rouse");
        for (String name : RouseOptions.ROUSE_BUNDLES) {
            copy(
                    bundles.resolve(name + ".jar"),
                    system.resolve(name + "/" + version + "/" + name + "-" + version + ".jar"));
        }
        try (var files = Files.list(bundles)) {
            Path features = files.filter(f -> f.getFileName().toString().matches("rouse-features.*\\.xml"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no rouse-features XML in " + bundles));
            copy(
                    features,
                    system.resolve("rouse-features/" + version + "/rouse-features-" + version + "-features.xml"));
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void edit(String file, String regex, String replacement) throws IOException {
        Path path = karaf.resolve(file);
        String text = Files.readString(path);
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertTrue(file + " has /" + regex + "/", matcher.find());
        Files.writeString(path, matcher.replaceFirst(replacement));
    }

    /**
     * A port nothing listens on, not handed out before, and below Linux's ephemeral range (32768 and up) so that no
     * outgoing connection of another process takes it before Karaf binds it.
     */
    private static int freePort() {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = 20_000 + ThreadLocalRandom.current().nextInt(12_000);
            if (PORTS.contains(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port)) {
                PORTS.add(port);
                return port;
            } catch (IOException inUse) {
                // try another
            }
        }
        throw new AssertionError("no free port from 20000 to 31999");
    }

    private static void run(Path directory, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(directory.toFile())
                .inheritIO()
                .start();
        assertTrue(String.join(" ", command) + " finished", p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(String.join(" ", command), 0, p.exitValue());
    }

    /** Ends Karaf's script and the JVM it started. */
    private static void kill() {
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        for (ProcessHandle handle : all) {
            handle.destroyForcibly();
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var walk = Files.walk(path)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static int count(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (matcher.find()) {
            n++;
        }
        return n;
    }

    /** Asserts that some line of {@code output} matches {@code regex} whole. */
    private static void assertLine(String output, String regex) {
        Pattern pattern = Pattern.compile(regex);
        assertTrue(
                "a line matching /" + regex + "/ in:\n" + output,
                output.lines()
                        .map(String::strip)
                        .anyMatch(line -> pattern.matcher(line).matches()));
    }
}
