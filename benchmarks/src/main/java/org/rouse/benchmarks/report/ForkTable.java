package org.rouse.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.rouse.benchmarks.scenario.Metric;

/**
 * One scenario's ratios from several forks (the same side-by-side run repeated in fresh JVMs): per variant and ratio
 * column, each fork's ratio against its baseline, as that fork's CSV report gives it ({@link CsvReport}).
 *
 * <pre>{@code
 * ForkTable forks = ForkTable.read("lock-facade-16", layout.ratioColumns(), List.of(fork1Csv, fork2Csv, fork3Csv));
 * double median = forks.median("rouse adaptive, no work", LockMetrics.THROUGHPUT);
 * }</pre>
 *
 * <p>Why: a run's interval ({@link ResultTable#pairedRange}) covers the noise between the rounds of one JVM only. Where
 * a variant runs differently from one JVM to the next (the JIT compiles it differently, the heap places its objects
 * differently), one JVM decides nothing; the JVMs themselves are the independent samples, and the median over forks
 * with the sign test's interval over them is what a goal is read from.
 */
public final class ForkTable {

    private final String name;
    private final List<Metric> ratioColumns;
    private final List<String> variants;
    private final int forks;
    /** Per variant, per ratio column key, the ratio of each fork in fork order ({@code NaN} where unknown). */
    private final Map<String, Map<String, List<Double>>> ratios;

    private ForkTable(
            String name,
            List<Metric> ratioColumns,
            List<String> variants,
            int forks,
            Map<String, Map<String, List<Double>>> ratios) {
        this.name = name;
        this.ratioColumns = List.copyOf(ratioColumns);
        this.variants = List.copyOf(variants);
        this.forks = forks;
        this.ratios = ratios;
    }

    /**
     * Reads the forks' CSV reports of one scenario.
     *
     * @param ratioColumns the scenario's ratio columns
     * @param forkCsvs one CSV report per fork, in fork order
     * @throws IOException if a report cannot be read
     * @throws IllegalArgumentException if a report lacks a ratio column or names different variants than the first
     */
    public static ForkTable read(String name, List<Metric> ratioColumns, List<Path> forkCsvs) throws IOException {
        List<String> texts = new ArrayList<>();
        for (Path csv : forkCsvs) {
            texts.add(Files.readString(csv, StandardCharsets.UTF_8));
        }
        return parse(name, ratioColumns, texts);
    }

    /** As {@link #read}, from the reports' text. */
    static ForkTable parse(String name, List<Metric> ratioColumns, List<String> forkCsvs) {
        Objects.requireNonNull(name, "name");
        if (forkCsvs.isEmpty()) {
            throw new IllegalArgumentException("no fork reports for " + name);
        }
        List<String> variants = null;
        Map<String, Map<String, List<Double>>> ratios = new LinkedHashMap<>();
        for (int fork = 0; fork < forkCsvs.size(); fork++) {
            List<List<String>> lines = CsvReport.parse(forkCsvs.get(fork));
            List<String> header = lines.get(0);
            List<String> forkVariants = new ArrayList<>();
            for (List<String> row : lines.subList(1, lines.size())) {
                String variant = row.get(0);
                forkVariants.add(variant);
                for (Metric metric : ratioColumns) {
                    String column = metric.key() + "_vs_baseline";
                    int index = header.indexOf(column);
                    if (index < 0) {
                        throw new IllegalArgumentException(
                                "fork " + (fork + 1) + " of " + name + " has no column " + column);
                    }
                    String cell = index < row.size() ? row.get(index) : "";
                    ratios.computeIfAbsent(variant, v -> new LinkedHashMap<>())
                            .computeIfAbsent(metric.key(), k -> new ArrayList<>())
                            .add(cell.isEmpty() ? Double.NaN : Double.parseDouble(cell));
                }
            }
            if (variants == null) {
                variants = forkVariants;
            } else if (!variants.equals(forkVariants)) {
                throw new IllegalArgumentException(
                        "fork " + (fork + 1) + " of " + name + " ran " + forkVariants + ", fork 1 ran " + variants);
            }
        }
        return new ForkTable(name, ratioColumns, variants, forkCsvs.size(), ratios);
    }

    public String name() {
        return name;
    }

    public List<Metric> ratioColumns() {
        return ratioColumns;
    }

    /** The variants, in the scenario's order. */
    public List<String> variants() {
        return variants;
    }

    /** How many forks the table holds. */
    public int forks() {
        return forks;
    }

    /** Each fork's ratio of {@code variant}'s {@code metric}, in fork order; {@code NaN} where a fork had none. */
    public List<Double> ratios(String variant, Metric metric) {
        Map<String, List<Double>> byMetric = ratios.get(variant);
        List<Double> values = byMetric == null ? null : byMetric.get(metric.key());
        return values == null ? List.of() : Collections.unmodifiableList(values);
    }

    /** The median over the forks that have a ratio; {@code NaN} when none has (the baseline row). */
    public double median(String variant, Metric metric) {
        return ResultTable.medianOfSorted(known(variant, metric));
    }

    /** The sign test's interval for that median, each fork one independent value; empty below two forks. */
    public Optional<ResultTable.PairedRange> interval(String variant, Metric metric) {
        return ResultTable.medianInterval(known(variant, metric));
    }

    private List<Double> known(String variant, Metric metric) {
        List<Double> known = new ArrayList<>();
        for (double v : ratios(variant, metric)) {
            if (!Double.isNaN(v)) {
                known.add(v);
            }
        }
        Collections.sort(known);
        return known;
    }
}
