package org.rouse.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.Variant;
import org.rouse.benchmarks.wakeup.WakeupFloor;

class HarnessTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Harness.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(60)
    void wakeupFloorQuickWritesTableCsvAndChartWithARowPerVariant(@TempDir Path dir) throws Exception {
        int status = run("wakeup-floor", "--quick", "--out", dir.toString());

        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        Path md = dir.resolve("wakeup-floor.md");
        Path csv = dir.resolve("wakeup-floor.csv");
        Path png = dir.resolve("wakeup-floor.png");
        assertTrue(Files.isRegularFile(md) && Files.isRegularFile(csv) && Files.isRegularFile(png));
        assertTrue(Files.size(png) > 0);

        String table = Files.readString(md);
        List<String> csvLines = Files.readAllLines(csv);
        List<Variant> variants = new WakeupFloor().variants(new Options(true, dir));
        assertEquals(variants.size() + 1, csvLines.size(), "header + one line per variant: " + csvLines);
        for (Variant variant : variants) {
            assertTrue(table.contains("\n| " + variant.name() + " | "), "a row for " + variant.name() + ":\n" + table);
            assertTrue(
                    csvLines.stream().anyMatch(l -> l.startsWith(variant.name() + ",")),
                    "a CSV line for " + variant.name());
        }
        assertTrue(table.contains("Harness wakeup-floor --quick --out " + dir + "`"), "the reproducing command");
    }

    @Test
    @Timeout(60)
    void aSideBySideRunMeasuresTheRoundsAskedAndSaysSo(@TempDir Path dir) throws Exception {
        int status = run("wakeup-floor", "--quick", "--rounds", "3", "--out", dir.toString());

        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        String table = Files.readString(dir.resolve("wakeup-floor.md"));
        assertTrue(table.contains(" + 3 measured rounds of "), table);
        assertTrue(table.contains("Harness wakeup-floor --quick --rounds 3 --out " + dir + "`"), table);
        List<String> csvLines = Files.readAllLines(dir.resolve("wakeup-floor.csv"));
        for (Variant variant : new WakeupFloor().variants(new Options(true, dir))) {
            assertTrue(
                    csvLines.stream().anyMatch(l -> l.startsWith(variant.name() + ",3,")),
                    "3 rounds for " + variant.name() + ": " + csvLines);
        }
    }

    @Test
    @Timeout(300)
    void forksRunInFreshJvmsAndTheSummaryHasEachForksRatio(@TempDir Path dir) throws Exception {
        int status = run("wakeup-floor", "--quick", "--rounds", "2", "--forks", "2", "--out", dir.toString());

        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        for (int fork = 1; fork <= 2; fork++) {
            String report = Files.readString(dir.resolve("fork-" + fork).resolve("wakeup-floor.md"));
            assertTrue(report.contains("heap 2048 MiB, pre-touched"), "fork " + fork + " ran in a child: " + report);
        }
        String summary = Files.readString(dir.resolve("wakeup-floor-forks.md"));
        assertTrue(summary.startsWith("# wakeup-floor in 2 JVMs\n"), summary);
        assertTrue(
                summary.contains("\n- JDK: ") && summary.contains(", heap 2048 MiB, pre-touched\n"),
                "the forks' JVM, not the summarizing one's (this test's JVM is not pre-touched): " + summary);
        assertTrue(summary.contains("Harness wakeup-floor --quick --rounds 2 --forks 2 --out " + dir + "`"), summary);
        List<String> csv = Files.readAllLines(dir.resolve("wakeup-floor-forks.csv"));
        List<Variant> variants = new WakeupFloor().variants(new Options(true, dir));
        assertEquals(variants.size() + 1, csv.size(), "header + one line per variant: " + csv);
        assertTrue(csv.get(0).contains("_vs_baseline_fork2"), csv.get(0));
        for (Variant variant : variants) {
            assertTrue(
                    summary.contains("\n| " + variant.name() + " | "), "a row for " + variant.name() + ":\n" + summary);
        }
    }

    @Test
    @Timeout(60)
    void oneVariantRunsAloneForTheRoundsAskedAndWritesNoReport(@TempDir Path dir) throws Exception {
        String name = new WakeupFloor().variants(new Options(true, dir)).get(0).name();

        int status = run("wakeup-floor", "--quick", "--out", dir.toString(), "--variant", name, "--rounds", "2");

        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        List<String> rounds = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, rounds.size(), "one line per measured round: " + rounds);
        assertTrue(rounds.get(0).startsWith("round 1: ") && rounds.get(1).startsWith("round 2: "), rounds.toString());
        assertTrue(rounds.get(0).contains("p50_us="), "the round's values by metric key: " + rounds.get(0));
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "no report: its ratios need the baselines");
        }
    }

    @Test
    void anUnknownVariantIsAUsageErrorThatListsTheVariants(@TempDir Path dir) {
        String first = new WakeupFloor().variants(new Options(true, dir)).get(0).name();

        assertEquals(2, run("wakeup-floor", "--quick", "--variant", "no such variant"));
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains("no variant named 'no such variant'"), message);
        assertTrue(message.contains("'" + first + "'"), message);
    }

    @Test
    void listNamesTheScenarios() {
        assertEquals(0, run("--list"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("wakeup-floor"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("rw-write-heavy"));
    }

    @Test
    void anUnknownScenarioIsAUsageError() {
        assertEquals(2, run("no-such-scenario"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no scenario named 'no-such-scenario'"));
    }

    @Test
    void noScenarioIsAUsageError() {
        assertEquals(2, run("--quick"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage:"));
    }
}
