package org.rouse.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.VariantSummary;

/**
 * Renders a {@link ResultTable} as a Markdown page: title and description, a header stating machine, JDK, date, the
 * command that reproduces it and the method, then one table row per variant with its ratios against the baseline,
 * and a legend of what each variant measures.
 *
 * <pre>{@code
 * String page = MarkdownReport.render(table, runInfo);
 * }</pre>
 */
public final class MarkdownReport {

    /** How a page's header line stating the JDK begins. */
    static final String JDK_LINE = "- JDK: ";

    private MarkdownReport() {}

    /**
     * The JDK (and heap) the page at {@code page} states in its header, if it is such a page: a summary of forks
     * quotes its forks' JDK from their own pages, since the process that summarizes them is not one of them.
     */
    public static Optional<String> jdkStatedIn(Path page) throws IOException {
        try (Stream<String> lines = Files.lines(page, StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.startsWith(JDK_LINE))
                    .map(line -> line.substring(JDK_LINE.length()))
                    .findFirst();
        }
    }

    /**
     * One line with each variant's CPU steal (the median over its measured rounds, as its other cells), when the
     * rounds measured it and the table has no column for it: a steal burst longer than a round can hit one variant's
     * rounds and not another's, and then a ratio between them says more about the machine than about the code.
     */
    private static void appendStealByVariant(StringBuilder out, ResultTable table) {
        if (table.layout().columns().contains(Metrics.STEAL_PERCENT)
                || table.rows().stream().allMatch(row -> Double.isNaN(row.value(Metrics.STEAL_PERCENT)))) {
            return;
        }
        List<String> parts = new ArrayList<>();
        for (VariantSummary row : table.rows()) {
            parts.add(String.format(Locale.ROOT, "`%s` %.1f", row.name(), row.value(Metrics.STEAL_PERCENT)));
        }
        out.append("- CPU steal in each variant's rounds (median, %): ")
                .append(String.join(", ", parts))
                .append('\n');
    }

    /** The whole page, ending with a newline. */
    public static String render(ResultTable table, RunInfo run) {
        StringBuilder out = new StringBuilder();
        out.append("# ").append(table.name()).append("\n\n");
        out.append(table.description()).append("\n\n");
        MachineInfo machine = run.machine();
        out.append("- Machine: ").append(machine.describeHardware()).append('\n');
        out.append(JDK_LINE).append(machine.jdk()).append('\n');
        out.append("- Date: ")
                .append(DateTimeFormatter.ISO_INSTANT.format(machine.date()))
                .append('\n');
        if (!Double.isNaN(run.stealPercent())) {
            out.append(String.format(
                    Locale.ROOT,
                    "- CPU steal during the run: %.1f %% of the machine's CPU time (given by the hypervisor to other"
                            + " guests; its bursts stall every thread)\n",
                    run.stealPercent()));
        }
        appendStealByVariant(out, table);
        out.append("- Reproduce: `").append(run.command()).append("`\n");
        out.append("- Method: all variants in one JVM, rounds interleaved (A B C A B C ...), ")
                .append(run.plan().describe())
                .append("; each cell is the median over the measured rounds of that round's value")
                .append(
                        table.layout().columns().stream().anyMatch(Metric::summed)
                                ? ", except a column marked \"all rounds\", which is the sum over them.\n"
                                : ".\n");
        out.append("- Ratios and their spread: a ratio is the median over the cycles of a variant's round divided by"
                + " its baseline's round of the same cycle (the two ran seconds apart, under the same outside load);"
                + " its brackets are a confidence interval of at least 95 % for that median (the sign test's; below"
                + " 6 rounds the lowest and highest cycle ratio, covering less). A goal inside them is not decided by"
                + " this run.\n");
        out.append("- Baseline: `")
                .append(table.baseline().name())
                .append("`; \"÷ baseline\" columns compare a variant with the baseline")
                .append(otherBaselines(table))
                .append(".\n\n");

        List<String> header = new ArrayList<>();
        List<String> align = new ArrayList<>();
        header.add("variant");
        align.add("---");
        for (Metric metric : table.layout().columns()) {
            header.add(metric.title());
            align.add("---:");
        }
        for (Metric metric : table.layout().ratioColumns()) {
            String base = table.layout().baselineFor(metric);
            header.add(metric.header() + " ÷ " + (base.equals(table.baseline().name()) ? "baseline" : escape(base)));
            align.add("---:");
        }
        appendRow(out, header);
        appendRow(out, align);
        for (VariantSummary row : table.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(escape(row.name()));
            for (Metric metric : table.layout().columns()) {
                cells.add(Cells.markdown(metric, row.value(metric)));
            }
            for (Metric metric : table.layout().ratioColumns()) {
                cells.add(Cells.ratio(table.ratio(row, metric), table.pairedRange(row, metric)));
            }
            appendRow(out, cells);
        }
        out.append('\n');
        for (VariantSummary row : table.rows()) {
            out.append("- `")
                    .append(row.name())
                    .append("`: ")
                    .append(row.description())
                    .append('\n');
        }
        return out.toString();
    }

    /** E.g. {@code ; "p99 ÷ blocking" columns divide by `blocking`'s}; empty when every ratio uses the baseline. */
    private static String otherBaselines(ResultTable table) {
        StringBuilder text = new StringBuilder();
        for (Metric metric : table.layout().ratioColumns()) {
            String base = table.layout().baselineFor(metric);
            if (!base.equals(table.baseline().name())) {
                text.append("; \"")
                        .append(metric.header())
                        .append(" ÷ ")
                        .append(escape(base))
                        .append("\" divides by `")
                        .append(base)
                        .append("`'s");
            }
        }
        for (Map.Entry<String, String> group : table.layout().rowBaselines().entrySet()) {
            text.append("; rows whose name ends in \"")
                    .append(escape(group.getKey()))
                    .append("\" divide by `")
                    .append(group.getValue())
                    .append("`'s instead");
        }
        return text.toString();
    }

    private static void appendRow(StringBuilder out, List<String> cells) {
        out.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static String escape(String cell) {
        return cell.replace("|", "\\|");
    }
}
