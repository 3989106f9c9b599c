package org.rouse.benchmarks.scenario;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a scenario's report looks: its columns, the variant every other one is compared with, which columns get a
 * ratio against it, and whether a latency chart is drawn.
 *
 * <pre>{@code
 * new ReportLayout(List.of(Metrics.P50_US, Metrics.P99_US), "ReentrantLock", List.of(Metrics.P50_US), true);
 * // p50 against one variant, p99 against another:
 * new ReportLayout(columns, "NIO inline", List.of(P50_US, P99_US), Map.of(P99_US, "blocking"), true);
 * }</pre>
 *
 * @param columns the metric columns, in order
 * @param baselineVariant the {@link Variant#name()} ratios are computed against
 * @param ratioColumns metrics (among {@code columns}) that get a "÷ baseline" column
 * @param ratioBaselines for ratio columns compared with another variant than {@code baselineVariant}: that variant's
 *     name, by metric
 * @param latencyChart draw latency percentiles per variant into a PNG
 */
public record ReportLayout(
        List<Metric> columns,
        String baselineVariant,
        List<Metric> ratioColumns,
        Map<Metric, String> ratioBaselines,
        boolean latencyChart) {

    public ReportLayout {
        columns = List.copyOf(columns);
        ratioColumns = List.copyOf(ratioColumns);
        ratioBaselines = Map.copyOf(ratioBaselines);
        Objects.requireNonNull(baselineVariant, "baselineVariant");
        if (!ratioColumns.containsAll(ratioBaselines.keySet())) {
            throw new IllegalArgumentException("ratioBaselines must name ratioColumns only: " + ratioBaselines);
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("columns must not be empty");
        }
        if (!columns.containsAll(ratioColumns)) {
            throw new IllegalArgumentException("ratioColumns must be among columns: " + ratioColumns);
        }
    }

    /** Every ratio column compared with {@code baselineVariant}. */
    public ReportLayout(List<Metric> columns, String baselineVariant, List<Metric> ratioColumns, boolean latencyChart) {
        this(columns, baselineVariant, ratioColumns, Map.of(), latencyChart);
    }

    /** The variant {@code metric}'s ratio column divides by. */
    public String baselineFor(Metric metric) {
        return ratioBaselines.getOrDefault(metric, baselineVariant);
    }
}
