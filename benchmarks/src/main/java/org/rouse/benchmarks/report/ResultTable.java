package org.rouse.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.ReportLayout;
import org.rouse.benchmarks.scenario.VariantSummary;

/**
 * A scenario's results arranged for reporting: one row per variant, the layout's columns, and the ratios against the
 * baseline row. Every writer ({@link MarkdownReport}, {@link CsvReport}, {@link PercentileChart}) reads this.
 *
 * <pre>{@code
 * ResultTable table = new ResultTable("wakeup-floor", "What waking a thread costs", layout, summaries);
 * double vsBaseline = table.ratio(table.rows().get(2), Metrics.P50_US);
 * }</pre>
 */
public final class ResultTable {

    private final String name;
    private final String description;
    private final ReportLayout layout;
    private final List<VariantSummary> rows;
    private final VariantSummary baseline;
    private final Map<String, VariantSummary> byName;

    /** @throws IllegalArgumentException if no row is the layout's baseline variant (or a ratio column's) */
    public ResultTable(String name, String description, ReportLayout layout, List<VariantSummary> rows) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.rows = List.copyOf(rows);
        this.byName = this.rows.stream()
                .collect(Collectors.toMap(VariantSummary::name, Function.identity(), (first, second) -> first));
        this.baseline = row(layout.baselineVariant());
        layout.ratioBaselines().values().forEach(this::row);
    }

    private VariantSummary row(String variant) {
        VariantSummary row = byName.get(variant);
        if (row == null) {
            throw new IllegalArgumentException("baseline '" + variant + "' is not among the rows of " + name);
        }
        return row;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public ReportLayout layout() {
        return layout;
    }

    public List<VariantSummary> rows() {
        return rows;
    }

    public VariantSummary baseline() {
        return baseline;
    }

    /**
     * {@code row}'s value of {@code metric} divided by the baseline's (the metric's own baseline variant when the
     * layout names one): above 1 means more than the baseline (slower,
     * costlier for latency and cost metrics). {@code NaN} when either value is unknown or the baseline's is zero.
     */
    public double ratio(VariantSummary row, Metric metric) {
        double base = byName.get(layout.baselineFor(metric)).value(metric);
        double value = row.value(metric);
        if (Double.isNaN(base) || Double.isNaN(value) || base == 0) {
            return Double.NaN;
        }
        return value / base;
    }

    /**
     * The spread of {@link #ratio}: round i of {@code row} divided by round i of the metric's baseline, the two rounds
     * of the same interleaved cycle (so seconds apart, under the same outside load), for every cycle in which both
     * values are known and the baseline's is not zero. Empty for the baseline row itself, for summaries without their
     * rounds, and with fewer than two such pairs.
     */
    public Optional<PairedRange> pairedRange(VariantSummary row, Metric metric) {
        VariantSummary base = byName.get(layout.baselineFor(metric));
        if (row == base) {
            return Optional.empty();
        }
        List<Double> values = row.roundValues(metric);
        List<Double> baseValues = base.roundValues(metric);
        double lowest = Double.POSITIVE_INFINITY;
        double highest = Double.NEGATIVE_INFINITY;
        int pairs = 0;
        for (int i = 0; i < Math.min(values.size(), baseValues.size()); i++) {
            double value = values.get(i);
            double baseValue = baseValues.get(i);
            if (Double.isNaN(value) || Double.isNaN(baseValue) || baseValue == 0) {
                continue;
            }
            double ratio = value / baseValue;
            lowest = Math.min(lowest, ratio);
            highest = Math.max(highest, ratio);
            pairs++;
        }
        return pairs < 2 ? Optional.empty() : Optional.of(new PairedRange(lowest, highest, pairs));
    }

    /**
     * The lowest and highest of a variant's per-cycle ratios to its baseline.
     *
     * @param pairs how many cycles had both values
     */
    public record PairedRange(double lowest, double highest, int pairs) {}
}
