package org.rouse.runtime;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runtime jar in a JVM of its own, driven through its Gogo shell on standard input, as an operator would.
 *
 * <p>Implementation notes: the shell prints no end-of-output mark, so every command is followed by {@code echo} of a
 * numbered mark and its output is what arrives before that mark. Standard error is merged into the output, so
 * framework errors printed while a command runs are part of what the command returns.
 */
final class ForkedRuntime implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern BUNDLE_LINE =
            Pattern.compile("^\\s*(\\d+)\\|(\\w+)\\s*\\|\\s*\\d+\\|(\\S+) ", Pattern.MULTILINE);
    private static final Pattern COMPONENT_LINE = Pattern.compile("^\\S+ in bundle (\\d+) \\(");
    private static final Pattern INSTANCE_LINE = Pattern.compile("^\\s+Id: \\d+, State:(\\w+)");

    private final Process process;
    private final StringBuffer output = new StringBuffer(); // appended by the pump thread, read by the test
    private final Thread pump;
    private final Writer stdin;
    private int commands;

    ForkedRuntime(Path runtimeJar, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", runtimeJar.toString()));
        command.addAll(List.of(args));
        process = new ProcessBuilder(command)
                .directory(runtimeJar.getParent().toFile())
                .redirectErrorStream(true)
                .start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump = new Thread(this::pumpOutput, "forked-runtime-output");
        pump.setDaemon(true);
        pump.start();
    }

    private void pumpOutput() {
        try (Reader in = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
            char[] buffer = new char[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                output.append(buffer, 0, n);
            }
        } catch (IOException e) {
            output.append("\n[test] output pump: ").append(e).append('\n');
        }
    }

    /** Everything the runtime printed so far. */
    String output() {
        return output.toString();
    }

    /** Runs one shell command and returns what was printed until it finished. */
    String shell(String command) {
        String mark = "END_OF_COMMAND_" + ++commands;
        int from = output.length();
        try {
            stdin.write(command + "\necho " + mark + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("runtime no longer reads its input; it printed:\n" + output, e);
        }
        await().atMost(COMMAND_TIMEOUT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> output.indexOf(mark, from) >= 0 || !process.isAlive());
        int end = output.indexOf(mark, from);
        if (end < 0) {
            throw new AssertionError("runtime ended before '" + command + "' finished; it printed:\n" + output);
        }
        return output.substring(from, end);
    }

    /** The id of the bundle with this symbolic name, from {@code lb -s}. */
    long bundleId(String symbolicName) {
        Matcher m = BUNDLE_LINE.matcher(shell("lb -s " + symbolicName));
        while (m.find()) {
            if (m.group(3).equals(symbolicName)) {
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError("no bundle " + symbolicName + " in:\n" + output);
    }

    /** The state column of {@code lb} for this bundle, e.g. {@code Active}. */
    String bundleState(long id) {
        Matcher m = BUNDLE_LINE.matcher(shell("lb"));
        while (m.find()) {
            if (Long.parseLong(m.group(1)) == id) {
                return m.group(2);
            }
        }
        throw new AssertionError("no bundle " + id + " in:\n" + output);
    }

    /** The value of one of the bundle's bean properties, e.g. {@code lastModified} or {@code location}. */
    String bundleProperty(long id, String property) {
        String out = shell("echo VALUE_IS ((bundle " + id + ") " + property + ")");
        Matcher m = Pattern.compile("VALUE_IS (\\S+)").matcher(out);
        if (!m.find()) {
            throw new AssertionError("no " + property + " of bundle " + id + " in:\n" + out);
        }
        return m.group(1);
    }

    /** The state of every component instance of this bundle, from {@code scr:list}. */
    List<String> componentStates(long bundleId) {
        List<String> states = new ArrayList<>();
        long current = -1;
        for (String line : shell("scr:list").split("\\R")) {
            String text = line.startsWith("g! ") ? line.substring(3) : line;
            Matcher component = COMPONENT_LINE.matcher(text);
            Matcher instance = INSTANCE_LINE.matcher(text);
            if (component.find()) {
                current = Long.parseLong(component.group(1));
            } else if (instance.find() && current == bundleId) {
                states.add(instance.group(1));
            }
        }
        return states;
    }

    /**
     * Ends the runtime's JVM with SIGKILL ({@link Process#destroyForcibly()} on Linux), as {@code kill -9} does: no
     * shutdown hook, no framework stop, its sockets closed by the kernel. Returns the exit code (137 on Linux).
     */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("runtime still alive 30 s after SIGKILL");
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Stops the framework from the shell and returns the exit code. */
    int stop() throws InterruptedException {
        try {
            stdin.write("stop 0\n");
            stdin.flush();
        } catch (IOException e) {
            // the runtime has already ended
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("runtime did not stop; it printed:\n" + output);
        }
        pump.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
            pump.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
