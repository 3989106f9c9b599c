package org.rouse.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Objects;
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
}
