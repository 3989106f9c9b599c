package org.rouse.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.Metrics;

class ForkTableTest {

    private static final List<Metric> RATIOS = List.of(Metrics.P50_US, Metrics.OPS);

    private static final MachineInfo MACHINE = new MachineInfo(
            2, "Test CPU", "Linux 6.1 amd64", "OpenJDK 17.0.15", Instant.parse("2026-01-02T03:04:05Z"), 1.5);

    /** A fork's CSV report as CsvReport writes it: the base row has no ratios, the quoted name holds a comma. */
    private static String forkCsv(double p50Ratio, double opsRatio) {
        return "variant,rounds,p50_us,ops,p50_us_vs_baseline,p50_us_vs_baseline_lowest,p50_us_vs_baseline_highest,"
                + "ops_vs_baseline,ops_vs_baseline_lowest,ops_vs_baseline_highest\n"
                + "base,8,100,1000,,,,,,\n"
                + "\"rouse, \"\"fast\"\"\",8,50,2000," + p50Ratio + ",0.1,0.9," + opsRatio + ",1,3\n";
    }

    private static ForkTable sixForks() {
        List<String> forks = new ArrayList<>();
        double[] p50 = {0.50, 0.40, 0.70, 0.60, 0.30, 0.80};
        for (int i = 0; i < p50.length; i++) {
            forks.add(forkCsv(p50[i], 2.0 + i));
        }
        return ForkTable.parse("demo", RATIOS, forks);
    }

    @Test
    void eachForkIsOneSampleOfTheRatioAndTheMedianIsOverForks() {
        ForkTable table = sixForks();
        String fast = "rouse, \"fast\"";

        assertEquals(List.of("base", fast), table.variants(), "names unquoted, in the scenario's order");
        assertEquals(6, table.forks());
        assertEquals(List.of(0.50, 0.40, 0.70, 0.60, 0.30, 0.80), table.ratios(fast, Metrics.P50_US), "fork order");
        assertEquals(0.55, table.median(fast, Metrics.P50_US), 1e-9);
        assertEquals(4.5, table.median(fast, Metrics.OPS), 1e-9);
        ResultTable.PairedRange interval = table.interval(fast, Metrics.P50_US).orElseThrow();
        assertEquals(0.30, interval.lowest(), 1e-9, "with 6 forks the sign test's 95 % interval is min-max");
        assertEquals(0.80, interval.highest(), 1e-9);
        assertEquals(6, interval.pairs());
        assertTrue(interval.confidence() >= 0.95, "coverage " + interval.confidence());
        assertTrue(Double.isNaN(table.median("base", Metrics.P50_US)), "the baseline has no ratio");
        assertTrue(table.interval("base", Metrics.P50_US).isEmpty());
    }

    @Test
    void withMoreForksTheIntervalNarrowsToInnerForks() {
        List<String> forks = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            forks.add(forkCsv(i / 10.0, 1));
        }
        ResultTable.PairedRange interval = ForkTable.parse("demo", RATIOS, forks)
                .interval("rouse, \"fast\"", Metrics.P50_US)
                .orElseThrow();

        assertEquals(0.2, interval.lowest(), 1e-9, "the 2nd lowest of 10 (coverage 97.9 %)");
        assertEquals(0.9, interval.highest(), 1e-9);
    }

    @Test
    void forksThatRanDifferentVariantsOrLackAColumnAreRejected() {
        String other = forkCsv(0.5, 2).replace("base,", "other,");
        IllegalArgumentException variants = assertThrows(
                IllegalArgumentException.class, () -> ForkTable.parse("demo", RATIOS, List.of(forkCsv(0.5, 2), other)));
        assertTrue(variants.getMessage().contains("fork 2 of demo"), variants.getMessage());

        IllegalArgumentException column = assertThrows(
                IllegalArgumentException.class,
                () -> ForkTable.parse("demo", List.of(Metrics.CPU_PER_OP_US), List.of(forkCsv(0.5, 2))));
        assertTrue(column.getMessage().contains("cpu_per_op_us_vs_baseline"), column.getMessage());
    }

    @Test
    void theReportGivesTheMedianItsIntervalAndEachFork(@TempDir Path dir) throws Exception {
        String command = "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness demo --forks 6";

        List<Path> files = ForkReport.write(sixForks(), MACHINE, command, dir);

        assertEquals(List.of(dir.resolve("demo-forks.md"), dir.resolve("demo-forks.csv")), files);
        String markdown = Files.readString(files.get(0));
        assertTrue(markdown.startsWith("# demo in 6 JVMs\n"), markdown);
        assertTrue(markdown.contains("- Reproduce: `" + command + "`"), markdown);
        assertTrue(
                markdown.contains("| rouse, \"fast\" | 0.55× (0.30–0.80) | 0.50, 0.40, 0.70, 0.60, 0.30, 0.80 |"
                        + " 4.50× (2.00–7.00) | 2.00, 3.00, 4.00, 5.00, 6.00, 7.00 |"),
                markdown);
        assertTrue(markdown.contains("\n| base |  |  |  |  |\n"), "no ratio for the baseline:\n" + markdown);
        List<String> csv = Files.readAllLines(files.get(1));
        assertTrue(
                csv.get(0)
                        .startsWith("variant,p50_us_vs_baseline,p50_us_vs_baseline_lowest,"
                                + "p50_us_vs_baseline_highest,p50_us_vs_baseline_fork1,"),
                csv.get(0));
        assertEquals("\"rouse, \"\"fast\"\"\",0.55,0.3,0.8,0.5,0.4,0.7,0.6,0.3,0.8,4.5,2,7,2,3,4,5,6,7", csv.get(2));
    }
}
