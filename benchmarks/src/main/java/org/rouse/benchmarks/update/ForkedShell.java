package org.rouse.benchmarks.update;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A process with a command shell on its standard input (the runtime's Gogo shell, or Karaf's {@code bin/client}),
 * driven as an operator would, with every output line kept together with the wall-clock time it arrived.
 *
 * <pre>{@code
 * try (ForkedShell shell = new ForkedShell(List.of("java", "-jar", "rouse-runtime.jar"), dir)) {
 *     String printed = shell.run("lb", Duration.ofSeconds(60));
 *     List<ForkedShell.Line> lines = shell.lines();
 * }
 * }</pre>
 *
 * <p>Implementation notes: a shell prints no end-of-output mark, so every command is followed by {@code echo} of a
 * numbered mark and its output is what arrives before a line ending in that mark (a line that contains the typed
 * {@code echo} itself, which an interactive shell echoes back, does not count). Standard error is merged into the
 * output. Terminal escape sequences are removed from each line.
 */
final class ForkedShell implements AutoCloseable {

    /** One line of output and the wall-clock time ({@link System#currentTimeMillis()}) it was read. */
    record Line(long arrivalMillis, String text) {}

    private static final Pattern ESCAPES = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]|\r");

    private final Process process;
    private final Writer stdin;
    private final Thread pump;
    /** Appended by the pump thread, read by the driving thread; guarded by itself, notified on each append. */
    private final List<Line> lines = new ArrayList<>();

    private int commands;

    ForkedShell(List<String> command, Path directory) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        process =
                builder.directory(directory.toFile()).redirectErrorStream(true).start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump = new Thread(this::pumpOutput, "forked-shell-output");
        pump.setDaemon(true);
        pump.start();
    }

    private void pumpOutput() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                add(ESCAPES.matcher(line).replaceAll(""));
            }
        } catch (IOException e) {
            add("[benchmark] output pump: " + e);
        }
        add("[benchmark] process ended");
    }

    private void add(String text) {
        synchronized (lines) {
            lines.add(new Line(System.currentTimeMillis(), text));
            lines.notifyAll();
        }
    }

    /** Every line printed so far. */
    List<Line> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Everything printed so far, one string. */
    String output() {
        StringBuilder all = new StringBuilder();
        lines().forEach(l -> all.append(l.text()).append('\n'));
        return all.toString();
    }

    /**
     * Types {@code command}, then waits until it has finished.
     *
     * @return the lines printed meanwhile
     * @throws IllegalStateException if the process ended or the command did not finish within {@code timeout}
     */
    String run(String command, Duration timeout) throws InterruptedException {
        String mark = "END_OF_COMMAND_" + ++commands;
        int from;
        synchronized (lines) {
            from = lines.size();
        }
        try {
            stdin.write(command + "\necho " + mark + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the shell no longer reads its input; it printed:\n" + output(), e);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        StringBuilder printed = new StringBuilder();
        synchronized (lines) {
            for (int next = from; ; ) {
                for (; next < lines.size(); next++) {
                    String text = lines.get(next).text();
                    if (text.endsWith(mark) && !text.contains("echo")) {
                        return printed.toString();
                    }
                    printed.append(text).append('\n');
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || !process.isAlive()) {
                    throw new IllegalStateException(
                            "'" + command + "' did not finish; the shell printed:\n" + output());
                }
                TimeUnit.NANOSECONDS.timedWait(lines, left);
            }
        }
    }

    /** Types {@code command} without waiting for anything, e.g. one that ends the shell. */
    void send(String command) throws IOException {
        stdin.write(command + "\n");
        stdin.flush();
    }

    /** Waits for the process to end by itself. */
    boolean waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Ends the process and everything it started, forcibly if it does not end within 30 s. */
    @Override
    public void close() throws InterruptedException {
        try {
            stdin.close();
        } catch (IOException e) {
            // the process has already ended
        }
        destroyTree(process.toHandle());
        pump.join(TimeUnit.SECONDS.toMillis(10));
    }

    /** Ends {@code root} and its descendants: politely, then forcibly after 30 s. */
    static void destroyTree(ProcessHandle root) throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        all.add(root);
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (ProcessHandle p : all) {
            while (p.isAlive() && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }
}
