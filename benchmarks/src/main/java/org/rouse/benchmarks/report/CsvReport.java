package org.rouse.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.VariantSummary;

/**
 * Renders a {@link ResultTable} as CSV (RFC 4180, comma-separated, header row): {@code variant}, {@code rounds}, one
 * column per metric key, then per ratio {@code <key>_vs_baseline} and the ends of its spread, the confidence interval
 * of {@link ResultTable#pairedRange} ({@code <key>_vs_baseline_lowest}, {@code <key>_vs_baseline_highest}).
 * Unknown values are empty cells.
 *
 * <pre>{@code
 * Files.writeString(dir.resolve("wakeup-floor.csv"), CsvReport.render(table));
 * }</pre>
 */
public final class CsvReport {

    private CsvReport() {}

    /** The whole file, ending with a newline. */
    public static String render(ResultTable table) {
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>();
        header.add("variant");
        header.add("rounds");
        table.layout().columns().forEach(m -> header.add(m.key()));
        for (Metric metric : table.layout().ratioColumns()) {
            header.add(metric.key() + "_vs_baseline");
            header.add(metric.key() + "_vs_baseline_lowest");
            header.add(metric.key() + "_vs_baseline_highest");
        }
        out.append(String.join(",", header)).append('\n');
        for (VariantSummary row : table.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(quote(row.name()));
            cells.add(Integer.toString(row.rounds()));
            for (Metric metric : table.layout().columns()) {
                cells.add(Cells.csv(row.value(metric)));
            }
            for (Metric metric : table.layout().ratioColumns()) {
                cells.add(Cells.csv(table.ratio(row, metric)));
                Optional<ResultTable.PairedRange> range = table.pairedRange(row, metric);
                cells.add(Cells.csv(range.map(ResultTable.PairedRange::lowest).orElse(Double.NaN)));
                cells.add(Cells.csv(range.map(ResultTable.PairedRange::highest).orElse(Double.NaN)));
            }
            out.append(String.join(",", cells)).append('\n');
        }
        return out.toString();
    }

    static String quote(String cell) {
        if (cell.contains(",") || cell.contains("\"") || cell.contains("\n")) {
            return '"' + cell.replace("\"", "\"\"") + '"';
        }
        return cell;
    }

    /**
     * Reads back a text {@link #render} wrote (one that holds no line breaks inside a cell): its rows, header first,
     * each cell unquoted.
     *
     * @throws IllegalArgumentException if the text has no row
     */
    static List<List<String>> parse(String csv) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : csv.split("\n")) {
            if (!line.isEmpty()) {
                rows.add(cells(line));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("an empty CSV report");
        }
        return rows;
    }

    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells;
    }
}
