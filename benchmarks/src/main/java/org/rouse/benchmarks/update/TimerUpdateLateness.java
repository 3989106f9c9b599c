package org.rouse.benchmarks.update;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rouse.benchmarks.report.MachineInfo;

/**
 * Timer lateness in the second that contains a {@code update} of the timer provider bundle {@code org.rouse.timer},
 * in the shipped runtime jar and in a real Apache Karaf, both with the example script host (711 scripts re-entering
 * every 50 ms, one summary line a second).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.update.TimerUpdateLateness \
 *     --runtime features/runtime/target/rouse-runtime.jar \
 *     --karaf target/karaf/apache-karaf-4.4.10.tar.gz [--updates 10] [--every 5] [--out benchmarks/results]
 * }</pre>
 *
 * <p>Each target runs in processes of its own: the runtime jar forked with its Gogo shell on standard input; Karaf
 * unpacked afresh under {@code target/timer-update-lateness/}, started with {@code bin/karaf server}, driven through
 * one {@code bin/client} session and stopped with {@code bin/stop}. After a warm-up, the provider is updated
 * {@code --updates} times, {@code --every} seconds apart. The script host's lines are read with their times (the
 * runtime's as they arrive on its standard output, Karaf's from the time stamps in {@code data/log/karaf.log}); a line
 * closes a window that began with the line before it. Writes {@code timer-update-lateness.md} (and the windows, one
 * per row, in {@code timer-update-lateness.csv}) to the output directory.
 *
 * <p>Not part of the build: it needs the built runtime jar, our artifacts installed in the local Maven repository
 * (Karaf resolves the feature repository from there) and a quiet machine. {@code benchmarks/timer-update-lateness.sh}
 * does all of it.
 *
 * <p>Implementation notes: which windows belong to an update. The script host's summary is itself a timer, so while
 * no engine exists it is held back with the scripts, and the events late because of the update can land in the window
 * closed by the first line after the update or in the one after it. The "update's second" is therefore every window
 * that overlaps the time from typing the command to its completion (usually one, its p99 the largest if more), and the
 * window after it is reported beside it; "quiet" windows are those after the previous update's next window and before
 * this update's, excluding a warm-up.
 */
public final class TimerUpdateLateness {

    static final String NAME = "timer-update-lateness";
    static final String PROVIDER = "org.rouse.timer";
    static final String FEATURES = "mvn:org.rouse/rouse-features/0.1.0-SNAPSHOT/xml/features";

    private static final Pattern SUMMARY = Pattern.compile(
            "(\\d+) scripts: mean re-entry ([\\d.]+) s, stdev ([\\d.]+) ms, p99 lateness ([\\d.]+) ms \\((\\d+) events\\)");
    private static final Pattern KARAF_TIME = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d,\\d{3})");
    private static final DateTimeFormatter KARAF_TIME_FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss,SSS");
    private static final Pattern BUNDLE_LINE =
            Pattern.compile("^\\D*(\\d+)\\|\\w+\\s*\\|\\s*\\d+\\|(\\S+) ", Pattern.MULTILINE);
    private static final int WARM_UP_WINDOWS = 10;
    private static final int WINDOWS_AFTER_LAST_UPDATE = 4;
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration LINE_TIMEOUT = Duration.ofMinutes(3);

    /** One summary line of the script host: the report window it closes. */
    record Window(long endMillis, double meanSeconds, double stdevMillis, double p99Millis, long events) {}

    /** When the update command was typed and when the shell had finished it. */
    record Update(long sentMillis, long doneMillis) {}

    /** What one target printed. */
    record Run(String where, List<Update> updates, List<Window> windows) {}

    /** The figures of one update. */
    record Row(int number, Update update, double updateP99, double nextP99, List<Double> quietP99s) {}

    private final int updates;
    private final Duration every;

    private TimerUpdateLateness(int updates, Duration every) {
        this.updates = updates;
        this.every = every;
    }

    public static void main(String[] args) throws Exception {
        Path runtime = null;
        Path karaf = null;
        Path out = Path.of("benchmarks", "results");
        int updates = 10;
        int everySeconds = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runtime" -> runtime = Path.of(args[++i]);
                case "--karaf" -> karaf = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--updates" -> updates = Integer.parseInt(args[++i]);
                case "--every" -> everySeconds = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: TimerUpdateLateness [--runtime JAR] [--karaf APACHE-KARAF.tar.gz]"
                            + " [--updates N] [--every SECONDS] [--out DIR]");
                    System.exit(2);
                }
            }
        }
        if (runtime == null && karaf == null) {
            System.err.println("name --runtime JAR, --karaf TAR_GZ or both");
            System.exit(2);
        }
        MachineInfo machine = MachineInfo.current();
        TimerUpdateLateness benchmark = new TimerUpdateLateness(updates, Duration.ofSeconds(everySeconds));
        List<Run> runs = new ArrayList<>();
        if (runtime != null) {
            runs.add(benchmark.runtime(runtime.toAbsolutePath()));
        }
        if (karaf != null) {
            runs.add(benchmark.karaf(karaf.toAbsolutePath()));
        }
        String command = "java -cp benchmarks/target/benchmarks.jar " + TimerUpdateLateness.class.getName() + " "
                + String.join(" ", args);
        String report = report(machine, command, runs);
        Files.createDirectories(out);
        Files.writeString(out.resolve(NAME + ".md"), report);
        Files.writeString(out.resolve(NAME + ".csv"), csv(runs));
        System.out.println(report);
        System.err.println("wrote " + out.resolve(NAME + ".md") + " and " + out.resolve(NAME + ".csv"));
    }

    // ---- the runtime jar --------------------------------------------------------------------------------------

    private Run runtime(Path jar) throws Exception {
        Path work = Files.createTempDirectory(NAME);
        Path conf = Files.createDirectories(work.resolve("conf"));
        // a free port rather than 6380, which another program on the machine may hold
        Files.writeString(conf.resolve("org.rouse.examples.resp.cfg"), "port = 0\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command =
                List.of(java, "-jar", jar.toString(), "--conf=" + conf, "--extract=" + work.resolve("bundles"));
        progress("runtime: " + String.join(" ", command));
        try (ForkedShell shell = new ForkedShell(command, work)) {
            long id = bundleId(shell.run("lb -s " + PROVIDER, COMMAND_TIMEOUT));
            List<Update> done = updateRepeatedly("update " + id, shell, () -> runtimeWindows(shell));
            shell.send("stop 0");
            if (!shell.waitFor(Duration.ofSeconds(60))) {
                progress("runtime: did not stop by itself; ending it");
            }
            return new Run("runtime", done, runtimeWindows(shell));
        }
    }

    private static List<Window> runtimeWindows(ForkedShell shell) {
        return windows(shell.lines().stream().map(l -> new Timed(l.arrivalMillis(), l.text())));
    }

    private static long bundleId(String lb) {
        Matcher m = BUNDLE_LINE.matcher(lb);
        while (m.find()) {
            if (m.group(2).equals(PROVIDER)) {
                return Long.parseLong(m.group(1));
            }
        }
        throw new IllegalStateException("no bundle " + PROVIDER + " in:\n" + lb);
    }

    // ---- Apache Karaf -----------------------------------------------------------------------------------------

    private Run karaf(Path tarGz) throws Exception {
        Path base = Path.of("target", NAME).toAbsolutePath();
        deleteTree(base);
        Files.createDirectories(base);
        exec(base, "tar", "xzf", tarGz.toString(), "-C", base.toString());
        Path home;
        try (Stream<Path> dirs = Files.list(base)) {
            home = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        // the distribution ships with no user; enable its commented-out sample one for bin/client
        Path users = home.resolve("etc/users.properties");
        Files.writeString(
                users,
                Files.readString(users)
                        .replace("#karaf = karaf,", "karaf = karaf,")
                        .replace("#_g_\\:admingroup", "_g_\\:admingroup"));
        Path log = home.resolve("data/log/karaf.log");
        progress("karaf: bin/karaf server in " + home);
        ProcessBuilder server = new ProcessBuilder(home.resolve("bin/karaf").toString(), "server");
        server.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process karaf = server.directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(base.resolve("karaf-console.out").toFile())
                .start();
        List<ProcessHandle> karafProcesses = new ArrayList<>();
        try {
            // one client session for the whole run: starting a client JVM per command would load the machine
            // just before each update
            try (ForkedShell client = new ForkedShell(
                    List.of(home.resolve("bin/client").toString(), "-u", "karaf", "-p", "karaf", "-r", "60", "-d", "2"),
                    home)) {
                progress("karaf: "
                        + client.run("feature:repo-add " + FEATURES, COMMAND_TIMEOUT)
                                .strip());
                progress("karaf: "
                        + client.run("feature:install rouse rouse-examples", COMMAND_TIMEOUT)
                                .strip());
                List<Update> done = updateRepeatedly("bundle:update " + PROVIDER, client, () -> karafWindows(log));
                return new Run("Karaf", done, karafWindows(log));
            }
        } finally {
            karafProcesses.addAll(karaf.descendants().toList()); // the JVM outlives bin/karaf if it is killed
            try {
                exec(home, home.resolve("bin/stop").toString());
            } catch (IOException e) {
                progress("karaf: " + e.getMessage()); // ended below
            }
            if (!karaf.waitFor(60, TimeUnit.SECONDS)) {
                progress("karaf: did not stop within 60 s; ending it");
            }
            karafProcesses.add(karaf.toHandle());
            for (ProcessHandle p : karafProcesses) {
                ForkedShell.destroyTree(p);
            }
            progress("karaf: stopped; processes left: "
                    + karafProcesses.stream().filter(ProcessHandle::isAlive).count());
        }
    }

    private static List<Window> karafWindows(Path log) throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        ZoneId zone = ZoneId.systemDefault();
        try (Stream<String> lines = Files.lines(log)) {
            return windows(lines.map(line -> {
                Matcher time = KARAF_TIME.matcher(line);
                long millis = time.find()
                        ? LocalDateTime.parse(time.group(1), KARAF_TIME_FORMAT)
                                .atZone(zone)
                                .toInstant()
                                .toEpochMilli()
                        : -1;
                return new Timed(millis, line);
            }));
        }
    }

    // ---- the measurement --------------------------------------------------------------------------------------

    private interface WindowSource {
        List<Window> read() throws IOException;
    }

    private List<Update> updateRepeatedly(String updateCommand, ForkedShell shell, WindowSource windows)
            throws Exception {
        awaitWindows(windows, WARM_UP_WINDOWS);
        List<Update> done = new ArrayList<>();
        for (int i = 1; i <= updates; i++) {
            TimeUnit.MILLISECONDS.sleep(every.toMillis());
            long sent = System.currentTimeMillis();
            String printed = shell.run(updateCommand, COMMAND_TIMEOUT);
            Update update = new Update(sent, System.currentTimeMillis());
            done.add(update);
            progress(String.format(
                    Locale.ROOT,
                    "update %d of %d took %d ms%s",
                    i,
                    updates,
                    update.doneMillis() - update.sentMillis(),
                    printed.isBlank() ? "" : "; printed: " + printed.strip()));
        }
        awaitWindows(windows, windows.read().size() + WINDOWS_AFTER_LAST_UPDATE);
        return done;
    }

    private static void awaitWindows(WindowSource windows, int count) throws Exception {
        long deadline = System.nanoTime() + LINE_TIMEOUT.toNanos();
        while (windows.read().size() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the script host printed "
                        + windows.read().size() + " of " + count + " summary lines within " + LINE_TIMEOUT);
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private record Timed(long millis, String text) {}

    private static List<Window> windows(Stream<Timed> lines) {
        List<Window> windows = new ArrayList<>();
        lines.forEach(line -> {
            Matcher m = SUMMARY.matcher(line.text());
            if (line.millis() >= 0 && m.find()) {
                windows.add(new Window(
                        line.millis(),
                        Double.parseDouble(m.group(2)),
                        Double.parseDouble(m.group(3)),
                        Double.parseDouble(m.group(4)),
                        Long.parseLong(m.group(5))));
            }
        });
        return windows;
    }

    /** The windows of {@code run} assigned to its updates (see the implementation notes). */
    record Analysis(List<Row> rows, String[] roles, int[] updateNumbers) {}

    static Analysis analyse(Run run) {
        List<Window> w = run.windows();
        String[] roles = new String[w.size()];
        int[] numbers = new int[w.size()];
        for (int i = 0; i < w.size(); i++) {
            roles[i] = i < WARM_UP_WINDOWS ? "warm-up" : "after";
        }
        List<Row> rows = new ArrayList<>();
        int quietFrom = WARM_UP_WINDOWS; // window i spans (end of i-1, end of i]
        for (int u = 0; u < run.updates().size(); u++) {
            Update update = run.updates().get(u);
            int first = quietFrom;
            while (first < w.size() && w.get(first).endMillis() <= update.sentMillis()) {
                first++;
            }
            int last = first; // extend while the next window starts before the command finished
            while (last + 1 < w.size() && w.get(last).endMillis() < update.doneMillis()) {
                last++;
            }
            List<Double> quiet = new ArrayList<>();
            for (int i = quietFrom; i < first; i++) {
                quiet.add(w.get(i).p99Millis());
                mark(roles, numbers, i, "quiet", u + 1);
            }
            double updateP99 = Double.NaN;
            for (int i = first; i <= last && i < w.size(); i++) {
                double p99 = w.get(i).p99Millis();
                updateP99 = Double.isNaN(updateP99) ? p99 : Math.max(updateP99, p99);
                mark(roles, numbers, i, "update", u + 1);
            }
            double nextP99 = Double.NaN;
            if (last + 1 < w.size()) {
                nextP99 = w.get(last + 1).p99Millis();
                mark(roles, numbers, last + 1, "next", u + 1);
            }
            rows.add(new Row(u + 1, update, updateP99, nextP99, quiet));
            quietFrom = last + 2;
        }
        return new Analysis(rows, roles, numbers);
    }

    private static void mark(String[] roles, int[] numbers, int i, String role, int update) {
        if (i < roles.length) {
            roles[i] = role;
            numbers[i] = update;
        }
    }

    // ---- the report -------------------------------------------------------------------------------------------

    static String report(MachineInfo machine, String command, List<Run> runs) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(NAME).append("\n\n");
        md.append("Timer lateness in the second that contains an `update` of the timer provider bundle `")
                .append(PROVIDER)
                .append("`, with the example script host (711 scripts re-entering every 50 ms) printing its p99 ")
                .append("lateness once a second. Goal: p99 of the update's second ≤ 10 ms, in the runtime and in ")
                .append("Karaf.\n\n");
        md.append("- Machine: ").append(machine.describeHardware()).append('\n');
        md.append("- JDK: ").append(machine.jdk()).append('\n');
        md.append("- Date: ").append(machine.date()).append('\n');
        md.append("- Reproduce (from the project root): `benchmarks/timer-update-lateness.sh`, which installs this ")
                .append("tree into the local Maven repository (Karaf resolves the feature repository from there), ")
                .append("fetches Karaf and runs\n\n  ```sh\n  ")
                .append(command)
                .append("\n  ```\n\n");
        md.append("Method: each target runs in processes of its own (the runtime jar with its Gogo shell on standard ")
                .append("input; Karaf 4.4.10 unpacked afresh, `bin/karaf server`, one `bin/client` session). After ")
                .append(WARM_UP_WINDOWS)
                .append(" seconds of warm-up, the provider is updated repeatedly (`update <id>` in the runtime, ")
                .append("`bundle:update ")
                .append(PROVIDER)
                .append("` in Karaf), a few seconds apart. Each script host line closes a one-second window; ")
                .append("the **update's second** is the window that overlaps the time from typing the command to its ")
                .append("completion (the largest p99 if the command spanned more than one), **next** is the window ")
                .append("after it (the summary is itself a timer, so events made late by the update may be counted ")
                .append("there), **quiet** are the windows between the previous update's next window and this ")
                .append("update. Times: the runtime's lines as they arrive on its output, Karaf's from its log's ")
                .append("time stamps; update times from the driving process, on the same clock.\n\n");
        md.append("| where | updates | p99 of the update's second, median / max (ms) | p99 of the next second, ")
                .append("median / max (ms) | p99 of the quiet seconds, median / max (ms) | goal ≤ 10 ms |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | --- |\n");
        for (Run run : runs) {
            List<Row> rows = analyse(run).rows();
            List<Double> updateP99 = rows.stream().map(Row::updateP99).toList();
            List<Double> nextP99 = rows.stream().map(Row::nextP99).toList();
            List<Double> quiet =
                    rows.stream().flatMap(r -> r.quietP99s().stream()).toList();
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s / %s | %s / %s | %s / %s (%d s) | %s |%n",
                    run.where(),
                    rows.size(),
                    ms(median(updateP99)),
                    ms(max(updateP99)),
                    ms(median(nextP99)),
                    ms(max(nextP99)),
                    ms(median(quiet)),
                    ms(max(quiet)),
                    quiet.size(),
                    max(updateP99) <= 10 ? "met" : "missed"));
        }
        md.append("\n| where | update # | command took (ms) | p99 of the update's second (ms) | p99 of the next ")
                .append("second (ms) | p99 of the quiet seconds before it, median (ms) |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (Run run : runs) {
            for (Row row : analyse(run).rows()) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %d | %d | %s | %s | %s |%n",
                        run.where(),
                        row.number(),
                        row.update().doneMillis() - row.update().sentMillis(),
                        ms(row.updateP99()),
                        ms(row.nextP99()),
                        ms(median(row.quietP99s()))));
            }
        }
        md.append("\nEvery window, with its role, is in `").append(NAME).append(".csv`.\n");
        return md.toString();
    }

    static String csv(List<Run> runs) {
        StringBuilder csv = new StringBuilder(
                "where,window_end_utc,p99_lateness_ms,mean_reentry_s,stdev_ms,events,role,update_number\n");
        for (Run run : runs) {
            Analysis analysis = analyse(run);
            for (int i = 0; i < run.windows().size(); i++) {
                Window window = run.windows().get(i);
                csv.append(String.format(
                        Locale.ROOT,
                        "%s,%s,%.3f,%.6f,%.3f,%d,%s,%d%n",
                        run.where(),
                        Instant.ofEpochMilli(window.endMillis()),
                        window.p99Millis(),
                        window.meanSeconds(),
                        window.stdevMillis(),
                        window.events(),
                        analysis.roles()[i],
                        analysis.updateNumbers()[i]));
            }
        }
        return csv.toString();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().filter(v -> !v.isNaN()).sorted().toList();
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double max(List<Double> values) {
        return values.stream()
                .filter(v -> !v.isNaN())
                .max(Comparator.naturalOrder())
                .orElse(Double.NaN);
    }

    private static String ms(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.1f", value);
    }

    // ---- processes and files ----------------------------------------------------------------------------------

    private static void exec(Path directory, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed");
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void progress(String message) {
        System.err.println("[" + NAME + "] " + message);
    }
}
