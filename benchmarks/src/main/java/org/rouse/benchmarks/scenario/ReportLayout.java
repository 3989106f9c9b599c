package org.rouse.benchmarks.scenario;

import java.util.List;
import java.util.Objects;

/**
 * How a scenario's report looks: its columns, the variant every other one is compared with, which columns get a
 * ratio against it, and whether a latency chart is drawn.
 *
 * <pre>{@code
 * new ReportLayout(List.of(Metrics.P50_US, Metrics.P99_US), "ReentrantLock", List.of(Metrics.P50_US), true);
 * }</pre>
 *
 * @param columns the metric columns, in order
 * @param baselineVariant the {@link Variant#name()} ratios are computed against
 * @param ratioColumns metrics (among {@code columns}) that get a "÷ baseline" column
 * @param latencyChart draw latency percentiles per variant into a PNG
 */
public record ReportLayout(
        List<Metric> columns, String baselineVariant, List<Metric> ratioColumns, boolean latencyChart) {

    public ReportLayout {
        columns = List.copyOf(columns);
        ratioColumns = List.copyOf(ratioColumns);
        Objects.requireNonNull(baselineVariant, "baselineVariant");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("columns must not be empty");
        }
        if (!columns.containsAll(ratioColumns)) {
            throw new IllegalArgumentException("ratioColumns must be among columns: " + ratioColumns);
        }
    }
}
