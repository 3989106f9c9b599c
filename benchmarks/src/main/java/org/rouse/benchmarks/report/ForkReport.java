package org.rouse.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rouse.benchmarks.scenario.Metric;

/**
 * Writes a {@link ForkTable} as {@code <scenario>-forks.md} (per variant and ratio column: the median over the forks,
 * its interval, and each fork's ratio) and {@code <scenario>-forks.csv} (the same, one column per fork).
 *
 * <pre>{@code
 * List<Path> files = ForkReport.write(forks, MachineInfo.current(), command, Path.of("benchmarks/results"));
 * }</pre>
 */
public final class ForkReport {

    private ForkReport() {}

    /** Writes both files (creating {@code directory} if needed) and returns them. */
    public static List<Path> write(ForkTable forks, MachineInfo machine, String command, Path directory)
            throws IOException {
        Files.createDirectories(directory);
        Path markdown = directory.resolve(forks.name() + "-forks.md");
        Files.writeString(markdown, markdown(forks, machine, command), StandardCharsets.UTF_8);
        Path csv = directory.resolve(forks.name() + "-forks.csv");
        Files.writeString(csv, csv(forks), StandardCharsets.UTF_8);
        return List.of(markdown, csv);
    }

    /** The Markdown page, ending with a newline. */
    public static String markdown(ForkTable forks, MachineInfo machine, String command) {
        StringBuilder out = new StringBuilder();
        out.append("# ")
                .append(forks.name())
                .append(" in ")
                .append(forks.forks())
                .append(" JVMs\n\n");
        out.append("The same side-by-side run repeated in ")
                .append(forks.forks())
                .append(" fresh JVMs, one after another (forks; each fork's own report is in `fork-<n>/`). A fork's"
                        + " ratio is its report's: the median over that JVM's paired cycles of a variant's round"
                        + " divided by its baseline's round. Here a ratio is the median over the forks of those"
                        + " ratios, and its brackets are the sign test's confidence interval for it with each JVM as"
                        + " one independent sample (at least 95 % from 6 forks on; below that the lowest and highest"
                        + " fork). It covers what changes from one JVM to the next (what the JIT compiles, where the"
                        + " heap places objects), which one run's interval does not. A goal inside the brackets is not"
                        + " decided.\n\n");
        out.append("- Machine: ").append(machine.describeHardware()).append('\n');
        out.append(MarkdownReport.JDK_LINE).append(machine.jdk()).append('\n');
        out.append("- Date: ")
                .append(DateTimeFormatter.ISO_INSTANT.format(machine.date()))
                .append('\n');
        out.append("- Reproduce: `").append(command).append("`\n");
        out.append("- Baselines: as in each fork's report.\n\n");
        List<String> header = new ArrayList<>();
        List<String> align = new ArrayList<>();
        header.add("variant");
        align.add("---");
        for (Metric metric : forks.ratioColumns()) {
            header.add(metric.header() + " ÷ baseline, median of forks");
            align.add("---:");
            header.add(metric.header() + " ÷ baseline, each fork");
            align.add("---");
        }
        out.append("| ").append(String.join(" | ", header)).append(" |\n");
        out.append("| ").append(String.join(" | ", align)).append(" |\n");
        for (String variant : forks.variants()) {
            List<String> cells = new ArrayList<>();
            cells.add(variant.replace("|", "\\|"));
            for (Metric metric : forks.ratioColumns()) {
                double median = forks.median(variant, metric);
                Optional<ResultTable.PairedRange> interval = forks.interval(variant, metric);
                cells.add(Double.isNaN(median) ? "" : Cells.ratio(median, interval));
                List<String> each = new ArrayList<>();
                for (double ratio : forks.ratios(variant, metric)) {
                    each.add(Cells.fixed(ratio, 2));
                }
                cells.add(Double.isNaN(median) ? "" : String.join(", ", each));
            }
            out.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        return out.toString();
    }

    /**
     * The CSV: {@code variant}, then per ratio column {@code <key>_vs_baseline} (the median over the forks),
     * {@code _lowest} and {@code _highest} (its interval), and {@code _fork1}, {@code _fork2}, ... Unknown values are
     * empty cells.
     */
    public static String csv(ForkTable forks) {
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>();
        header.add("variant");
        for (Metric metric : forks.ratioColumns()) {
            String key = metric.key() + "_vs_baseline";
            header.add(key);
            header.add(key + "_lowest");
            header.add(key + "_highest");
            for (int fork = 1; fork <= forks.forks(); fork++) {
                header.add(key + "_fork" + fork);
            }
        }
        out.append(String.join(",", header)).append('\n');
        for (String variant : forks.variants()) {
            List<String> cells = new ArrayList<>();
            cells.add(CsvReport.quote(variant));
            for (Metric metric : forks.ratioColumns()) {
                Optional<ResultTable.PairedRange> interval = forks.interval(variant, metric);
                cells.add(Cells.csv(forks.median(variant, metric)));
                cells.add(
                        Cells.csv(interval.map(ResultTable.PairedRange::lowest).orElse(Double.NaN)));
                cells.add(
                        Cells.csv(interval.map(ResultTable.PairedRange::highest).orElse(Double.NaN)));
                List<Double> each = forks.ratios(variant, metric);
                for (int fork = 0; fork < forks.forks(); fork++) {
                    cells.add(Cells.csv(fork < each.size() ? each.get(fork) : Double.NaN));
                }
            }
            out.append(String.join(",", cells)).append('\n');
        }
        return out.toString();
    }
}
