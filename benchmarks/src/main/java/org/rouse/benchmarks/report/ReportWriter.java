package org.rouse.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a scenario's report files into a directory: {@code <name>.md}, {@code <name>.csv} and, when the layout asks
 * for it and there are latency samples, {@code <name>.png}. Existing files of the same name are replaced.
 *
 * <pre>{@code
 * List<Path> files = ReportWriter.write(table, runInfo, Path.of("benchmarks/results"));
 * }</pre>
 */
public final class ReportWriter {

    private ReportWriter() {}

    /** Writes the files (creating {@code directory} if needed) and returns them. */
    public static List<Path> write(ResultTable table, RunInfo run, Path directory) throws IOException {
        Files.createDirectories(directory);
        List<Path> written = new ArrayList<>();
        Path markdown = directory.resolve(table.name() + ".md");
        Files.writeString(markdown, MarkdownReport.render(table, run), StandardCharsets.UTF_8);
        written.add(markdown);
        Path csv = directory.resolve(table.name() + ".csv");
        Files.writeString(csv, CsvReport.render(table), StandardCharsets.UTF_8);
        written.add(csv);
        if (table.layout().latencyChart()) {
            Path png = directory.resolve(table.name() + ".png");
            if (PercentileChart.write(table, png)) {
                written.add(png);
            }
        }
        return written;
    }
}
