package org.rouse.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.VariantSummary;

class ReportWriterTest {

    private static final ReportLayout LAYOUT = new ReportLayout(
            List.of(Metrics.P50_US, Metrics.CPU_PER_OP_US, Metrics.OPS), "base", List.of(Metrics.P50_US), true);

    private static final RunInfo RUN = new RunInfo(
            new MachineInfo(
                    2, "Test CPU", "Linux 6.1 amd64", "OpenJDK 17.0.15", Instant.parse("2026-01-02T03:04:05Z"), 1.5),
            "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness demo",
            new RoundPlan(1, 5, Duration.ofMillis(200)));

    private static VariantSummary row(String name, double p50, double cpu, double ops, LatencyHistogram latency) {
        Map<Metric, Double> values = new LinkedHashMap<>();
        values.put(Metrics.P50_US, p50);
        values.put(Metrics.CPU_PER_OP_US, cpu);
        values.put(Metrics.OPS, ops);
        return new VariantSummary(name, name + " does things", 5, values, latency);
    }

    private static ResultTable table(LatencyHistogram latency) {
        return table(
                LAYOUT,
                row("base", 100, 2.5, 1000, latency),
                row("fast", 25, 1.25, 4000, null),
                row("slow, really", 250, Double.NaN, 400, null));
    }

    private static ResultTable table(ReportLayout layout, VariantSummary... rows) {
        return new ResultTable("demo", "A demo scenario.", layout, List.of(rows));
    }

    @Test
    void ratiosDivideByTheBaselineRow() {
        ResultTable table = table(null);
        assertEquals(1.0, table.ratio(table.rows().get(0), Metrics.P50_US));
        assertEquals(0.25, table.ratio(table.rows().get(1), Metrics.P50_US));
        assertEquals(2.5, table.ratio(table.rows().get(2), Metrics.P50_US));
        assertTrue(Double.isNaN(table.ratio(table.rows().get(2), Metrics.CPU_PER_OP_US)), "unknown value");
    }

    @Test
    void aRatioColumnMayDivideByItsOwnBaseline() {
        ReportLayout layout = new ReportLayout(
                List.of(Metrics.P50_US, Metrics.CPU_PER_OP_US),
                "base",
                List.of(Metrics.P50_US, Metrics.CPU_PER_OP_US),
                Map.of(Metrics.CPU_PER_OP_US, "fast"),
                false);
        ResultTable table = new ResultTable(
                "demo", "", layout, List.of(row("base", 100, 2.5, 1, null), row("fast", 25, 1.25, 1, null)));

        assertEquals(0.25, table.ratio(table.rows().get(1), Metrics.P50_US));
        assertEquals(2.0, table.ratio(table.rows().get(0), Metrics.CPU_PER_OP_US));
        String page = MarkdownReport.render(table, RUN);
        assertTrue(page.contains("| p50 ÷ baseline | CPU/op ÷ fast |"), page);
        assertTrue(page.contains("\"CPU/op ÷ fast\" divides by `fast`'s"), page);
        assertThrows(
                IllegalArgumentException.class,
                () -> new ResultTable("demo", "", layout, List.of(row("base", 1, 1, 1, null))),
                "the other baseline must be a row too");
    }

    @Test
    void rowsOfAGroupDivideByTheirGroupsBaseline() {
        ReportLayout layout = LAYOUT.withRowBaseline(", work", "base, work");
        ResultTable table = table(
                layout,
                row("base", 100, 1, 1000, null),
                row("fast", 50, 1, 2000, null),
                row("base, work", 400, 1, 250, null),
                row("fast, work", 200, 1, 500, null));

        assertEquals(0.5, table.ratio(table.rows().get(1), Metrics.P50_US), "no group: the layout's baseline");
        assertEquals(1.0, table.ratio(table.rows().get(2), Metrics.P50_US), "the group's baseline itself");
        assertEquals(0.5, table.ratio(table.rows().get(3), Metrics.P50_US), "200 / 400, not 200 / 100");
        String page = MarkdownReport.render(table, RUN);
        assertTrue(page.contains("| fast, work | 200.0 | 1.00 | 500 | 0.50× |\n"), page);
        assertTrue(page.contains("rows whose name ends in \", work\" divide by `base, work`'s instead"), page);
        assertEquals("base, work", layout.baselineFor("fast, work", Metrics.P50_US));
        assertEquals("base", layout.baselineFor("fast", Metrics.P50_US));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ResultTable("demo", "", LAYOUT.withRowBaseline(", work", "missing"), table.rows()),
                "a group's baseline must be a row");
    }

    @Test
    void ratioAgainstAZeroBaselineIsUnknown() {
        ResultTable table =
                new ResultTable("demo", "", LAYOUT, List.of(row("base", 0, 0, 0, null), row("other", 5, 1, 1, null)));
        assertTrue(Double.isNaN(table.ratio(table.rows().get(1), Metrics.P50_US)));
    }

    @Test
    void aBaselineThatIsNotARowIsRejected() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new ResultTable("demo", "", LAYOUT, List.of(row("other", 1, 1, 1, null))));
        assertTrue(e.getMessage().contains("'base'"), e.getMessage());
    }

    @Test
    void markdownHasHeaderFactsAndOneRowPerVariant() {
        String page = MarkdownReport.render(table(null), RUN);

        assertTrue(page.startsWith("# demo\n\nA demo scenario.\n\n"), page);
        assertTrue(page.contains("- Machine: 2 cores (Test CPU), Linux 6.1 amd64, load average 1.50\n"), page);
        assertTrue(page.contains("- JDK: OpenJDK 17.0.15\n"), page);
        assertTrue(page.contains("- Date: 2026-01-02T03:04:05Z\n"), page);
        assertTrue(
                page.contains("- Reproduce: `java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness"
                        + " demo`\n"),
                page);
        assertTrue(page.contains("1 warm-up + 5 measured rounds of 200 ms per variant"), page);
        assertTrue(page.contains("- Baseline: `base`"), page);
        assertTrue(
                page.contains("| variant | p50 (µs) | CPU/op (µs) | ops/round | p50 ÷ baseline |\n"
                        + "| --- | ---: | ---: | ---: | ---: |\n"
                        + "| base | 100.0 | 2.50 | 1000 | 1.00× |\n"
                        + "| fast | 25.0 | 1.25 | 4000 | 0.25× |\n"
                        + "| slow, really | 250.0 | n/a | 400 | 2.50× |\n"),
                page);
        assertTrue(page.contains("- `fast`: fast does things\n"), page);
    }

    @Test
    void markdownSaysWhichColumnIsASumOverTheRounds() {
        Metric violations = Metric.summedCount("violations", "violations, all rounds");
        ReportLayout withCount =
                new ReportLayout(List.of(Metrics.OPS, violations), "base", List.of(Metrics.OPS), false);
        VariantSummary base = new VariantSummary("base", "", 5, Map.of(Metrics.OPS, 10.0, violations, 1.0), null);

        String page = MarkdownReport.render(table(withCount, base), RUN);
        String plain = MarkdownReport.render(table(null), RUN);

        assertTrue(page.contains("except a column marked \"all rounds\", which is the sum over them.\n"), page);
        assertTrue(page.contains("| violations, all rounds |"), page);
        assertFalse(plain.contains("all rounds"), plain);
    }

    @Test
    void markdownStatesTheStealTimeWhenItWasMeasuredAndNothingWhenNot() {
        RunInfo stolen = new RunInfo(RUN.machine(), RUN.command(), RUN.plan(), 2.345);

        assertTrue(
                MarkdownReport.render(table(null), stolen)
                        .contains("- CPU steal during the run: 2.3 % of the machine's CPU time"),
                "the steal line");
        assertFalse(MarkdownReport.render(table(null), RUN).contains("CPU steal"), "no steal line when unknown");
    }

    @Test
    void markdownStatesEachVariantsStealWhenItsRoundsMeasuredIt() {
        VariantSummary base = row("base", 100, 2.5, 1000, null);
        Map<Metric, Double> stolenValues = new LinkedHashMap<>();
        stolenValues.put(Metrics.P50_US, 400.0);
        stolenValues.put(Metrics.STEAL_PERCENT, 6.04);
        VariantSummary stolen = new VariantSummary("stolen", "met a burst", 5, stolenValues, null);
        ResultTable withSteal = new ResultTable("demo", "A demo scenario.", LAYOUT, List.of(base, stolen));

        String page = MarkdownReport.render(withSteal, RUN);

        assertTrue(page.contains("- CPU steal in each variant's rounds (median, %): `base` NaN, `stolen` 6.0\n"), page);
        assertFalse(MarkdownReport.render(table(null), RUN).contains("CPU steal"), "no line when no round measured it");
    }

    @Test
    void csvHasTheSameDataMachineReadable() {
        assertEquals(
                "variant,rounds,p50_us,cpu_per_op_us,ops,p50_us_vs_baseline,p50_us_vs_baseline_lowest,"
                        + "p50_us_vs_baseline_highest\n"
                        + "base,5,100,2.5,1000,1,,\n"
                        + "fast,5,25,1.25,4000,0.25,,\n"
                        + "\"slow, really\",5,250,,400,2.5,,\n",
                CsvReport.render(table(null)));
    }

    /** Rounds of one cycle: {@code p50} of the baseline and of the variant per cycle. */
    private static ResultTable measuredTable(double[] baseP50, double[] variantP50) {
        return table(
                LAYOUT,
                VariantSummary.of("base", "the baseline", rounds(baseP50)),
                VariantSummary.of("variant", "the variant", rounds(variantP50)));
    }

    private static List<Measurement> rounds(double[] p50) {
        List<Measurement> rounds = new ArrayList<>();
        for (double value : p50) {
            rounds.add(Measurement.builder().put(Metrics.P50_US, value).build());
        }
        return rounds;
    }

    @Test
    void aRatiosSpreadPairsEachRoundWithTheBaselinesRoundOfTheSameCycle() {
        // cycle ratios 0.5, 2.0, 1.0: the spread is theirs, not the ratio of extremes (100 / 400 or 400 / 100)
        ResultTable table = measuredTable(new double[] {400, 100, 200}, new double[] {200, 200, 200});
        VariantSummary variant = table.rows().get(1);

        ResultTable.PairedRange range =
                table.pairedRange(variant, Metrics.P50_US).orElseThrow();

        assertEquals(0.5, range.lowest());
        assertEquals(2.0, range.highest());
        assertEquals(3, range.pairs());
        assertEquals(0.75, range.confidence(), 1e-12, "three cycles: lowest to highest, 1 - 2 / 8");
        assertEquals(1.0, table.ratio(variant, Metrics.P50_US), "the median cycle ratio");
        assertTrue(MarkdownReport.render(table, RUN).contains("| variant | 200.0 | n/a | n/a | 1.00× (0.50–2.00) |\n"));
        assertTrue(CsvReport.render(table).contains("\nvariant,3,200,,,1,0.5,2\n"), CsvReport.render(table));
    }

    @Test
    void withRoundsTheRatioIsTheMedianCycleRatioNotTheRatioOfMedians() {
        // medians 2.5 and 2.5 (ratio 1); cycle ratios 4, 1.5, 0.667, 0.25: their median is (0.667 + 1.5) / 2
        ResultTable table = measuredTable(new double[] {1, 2, 3, 4}, new double[] {4, 3, 2, 1});
        VariantSummary variant = table.rows().get(1);

        assertEquals((2.0 / 3 + 1.5) / 2, table.ratio(variant, Metrics.P50_US), 1e-12);
        ResultTable.PairedRange range =
                table.pairedRange(variant, Metrics.P50_US).orElseThrow();
        assertTrue(range.lowest() <= table.ratio(variant, Metrics.P50_US), "the interval holds the ratio");
        assertTrue(range.highest() >= table.ratio(variant, Metrics.P50_US), "the interval holds the ratio");
        assertEquals(1.0, table.ratio(table.rows().get(0), Metrics.P50_US), "the baseline against itself");
    }

    @Test
    void withMoreCyclesTheSpreadIsTheSignTestsIntervalForTheMedian() {
        double[] base = new double[30];
        double[] variant = new double[30];
        for (int i = 0; i < 30; i++) {
            base[i] = 100;
            variant[i] = 100 + (i * 7 % 30); // the ratios 1.00, 1.01, ..., 1.29 in a shuffled order
        }
        ResultTable table = measuredTable(base, variant);

        ResultTable.PairedRange range =
                table.pairedRange(table.rows().get(1), Metrics.P50_US).orElseThrow();

        assertEquals(1.09, range.lowest(), 1e-12, "the 10th lowest");
        assertEquals(1.20, range.highest(), 1e-12, "the 10th highest");
        assertEquals(30, range.pairs());
        assertTrue(range.confidence() >= 0.95 && range.confidence() < 0.96, "coverage " + range.confidence());
    }

    @Test
    void theSignTestsCoverageIsExact() {
        assertEquals(1 - 2.0 / 64, ResultTable.signTestCoverage(6, 1), 1e-12, "6 cycles: lowest to highest");
        assertEquals(1 - 2 * 11.0 / 1024, ResultTable.signTestCoverage(10, 2), 1e-12, "10 cycles: 2nd of each end");
        assertTrue(ResultTable.signTestCoverage(10, 3) < 0.95, "10 cycles: the 3rd of each end covers less");
        assertTrue(ResultTable.signTestCoverage(5000, 2400) > 0.99, "thousands of cycles: no underflow");
    }

    @Test
    void cyclesWithAnUnknownOrZeroValueAreLeftOutOfTheSpread() {
        ResultTable table = measuredTable(new double[] {100, 0, 100, 100}, new double[] {50, 80, Double.NaN, 150});

        ResultTable.PairedRange range =
                table.pairedRange(table.rows().get(1), Metrics.P50_US).orElseThrow();

        assertEquals(0.5, range.lowest());
        assertEquals(1.5, range.highest());
        assertEquals(2, range.pairs(), "cycles 2 (baseline 0) and 3 (variant unknown) left out");
    }

    @Test
    void theBaselineAndSummariesWithoutRoundsHaveNoSpread() {
        ResultTable measured = measuredTable(new double[] {1, 2}, new double[] {3, 4});
        ResultTable known = table(null);

        assertTrue(measured.pairedRange(measured.rows().get(0), Metrics.P50_US).isEmpty(), "the baseline itself");
        assertTrue(known.pairedRange(known.rows().get(1), Metrics.P50_US).isEmpty(), "no rounds kept");
        ResultTable oneCycle = measuredTable(new double[] {1}, new double[] {2});
        assertTrue(oneCycle.pairedRange(oneCycle.rows().get(1), Metrics.P50_US).isEmpty(), "one cycle is no spread");
    }

    @Test
    void writesTheThreeFilesWhenThereAreLatencySamples(@TempDir Path dir) throws Exception {
        LatencyHistogram latency = new LatencyHistogram();
        for (int i = 1; i <= 1000; i++) {
            latency.recordNanos(i * 1_000L);
        }

        List<Path> files = ReportWriter.write(table(latency), RUN, dir.resolve("out"));

        assertEquals(
                List.of(dir.resolve("out/demo.md"), dir.resolve("out/demo.csv"), dir.resolve("out/demo.png")), files);
        assertEquals(MarkdownReport.render(table(latency), RUN), Files.readString(files.get(0)));
        byte[] png = Files.readAllBytes(files.get(2));
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "a PNG image");
    }

    @Test
    void drawsNoChartWithoutLatencySamples(@TempDir Path dir) throws Exception {
        List<Path> files = ReportWriter.write(table(null), RUN, dir);

        assertEquals(List.of(dir.resolve("demo.md"), dir.resolve("demo.csv")), files);
        assertTrue(Files.notExists(dir.resolve("demo.png")));
    }
}
