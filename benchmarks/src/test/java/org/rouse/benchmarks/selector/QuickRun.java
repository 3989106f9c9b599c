package org.rouse.benchmarks.selector;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.rouse.benchmarks.Harness;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

/**
 * A {@code --quick} harness run of one selector scenario into a directory, with the report's table and CSV read
 * back: a row per variant is checked on the way.
 */
final class QuickRun {

    /** Name prefixes of the threads the scenarios' clients, servers and engines start. */
    private static final List<String> SCENARIO_THREADS = List.of(
            "rouse-bench-selector-",
            "rouse-bench-nio-",
            "rouse-bench-blocking-",
            "rouse-bench-netty-",
            "rouse-selector-");

    final String table;
    final List<Variant> variants;
    private final List<String> csv;
    /** The CSV columns after the variant column. */
    private final List<String> header;

    private QuickRun(String table, List<String> csv, List<Variant> variants) {
        this.table = table;
        this.csv = csv;
        this.variants = variants;
        String[] columns = csv.get(0).split(",");
        this.header = Arrays.asList(columns).subList(1, columns.length);
    }

    /** Runs {@code scenario} with {@code --quick} into {@code dir} and checks the files have a row per variant. */
    static QuickRun of(Scenario scenario, Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Harness.run(
                List.of(scenario.name(), "--quick", "--out", dir.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        QuickRun run = new QuickRun(
                Files.readString(dir.resolve(scenario.name() + ".md")),
                Files.readAllLines(dir.resolve(scenario.name() + ".csv")),
                scenario.variants(new Options(true, dir)));
        assertTrue(Files.size(dir.resolve(scenario.name() + ".png")) > 0);
        assertEquals(run.variants.size() + 1, run.csv.size(), "header + one line per variant: " + run.csv);
        for (Variant variant : run.variants) {
            assertTrue(
                    run.table.contains("\n| " + variant.name() + " | "),
                    "a row for " + variant.name() + ":\n" + run.table);
        }
        return run;
    }

    /** The CSV cell of {@code variant} in {@code column}: empty when not measured. */
    String cell(String variant, String column) {
        int index = header.indexOf(column);
        assertTrue(index >= 0, "a column " + column + " in " + header);
        // names with commas are quoted, numbers never are
        String name = variant.contains(",") ? '"' + variant + '"' : variant;
        return csv.stream()
                .filter(l -> l.startsWith(name + ","))
                .findFirst()
                .orElseThrow(() -> new AssertionError("a CSV line for " + variant))
                .substring(name.length() + 1)
                .split(",", -1)[index];
    }

    /** The number in {@code variant}'s {@code column}, which must be measured. */
    double number(String variant, String column) {
        String cell = cell(variant, column);
        assertFalse(cell.isEmpty(), column + " is measured for " + variant);
        return Double.parseDouble(cell);
    }

    /** Waits until every server, engine and client thread of the scenarios has ended. */
    static void awaitNoScenarioThreads() {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertEquals("", scenarioThreads(), "servers, engines and clients are shut down"));
    }

    private static String scenarioThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> SCENARIO_THREADS.stream().anyMatch(n::startsWith))
                .collect(Collectors.joining(", "));
    }
}
