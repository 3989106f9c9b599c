package org.rouse.benchmarks.scenario;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

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
 * @param rowBaselines for rows of a group with a baseline of its own: rows whose name ends with the key divide every
 *     ratio by the variant the value names (e.g. ", work" to "ReentrantLock, work"), whatever the column
 */
public record ReportLayout(
        List<Metric> columns,
        String baselineVariant,
        List<Metric> ratioColumns,
        Map<Metric, String> ratioBaselines,
        boolean latencyChart,
        Map<String, String> rowBaselines) {

    public ReportLayout {
        columns = List.copyOf(columns);
        ratioColumns = List.copyOf(ratioColumns);
        ratioBaselines = Map.copyOf(ratioBaselines);
        rowBaselines = Map.copyOf(rowBaselines);
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

    /** Every row's ratios by column only. */
    public ReportLayout(
            List<Metric> columns,
            String baselineVariant,
            List<Metric> ratioColumns,
            Map<Metric, String> ratioBaselines,
            boolean latencyChart) {
        this(columns, baselineVariant, ratioColumns, ratioBaselines, latencyChart, Map.of());
    }

    /** Every ratio column compared with {@code baselineVariant}. */
    public ReportLayout(List<Metric> columns, String baselineVariant, List<Metric> ratioColumns, boolean latencyChart) {
        this(columns, baselineVariant, ratioColumns, Map.of(), latencyChart);
    }

    /** This layout, with the rows whose name ends with {@code suffix} divided by {@code baseline} instead. */
    public ReportLayout withRowBaseline(String suffix, String baseline) {
        Map<String, String> rows = new LinkedHashMap<>(rowBaselines);
        rows.put(Objects.requireNonNull(suffix, "suffix"), Objects.requireNonNull(baseline, "baseline"));
        return new ReportLayout(columns, baselineVariant, ratioColumns, ratioBaselines, latencyChart, rows);
    }

    /** The variant {@code metric}'s ratio column divides by, for rows without a baseline of their own. */
    public String baselineFor(Metric metric) {
        return ratioBaselines.getOrDefault(metric, baselineVariant);
    }

    /** The variant row {@code variant}'s ratio of {@code metric} divides by. */
    public String baselineFor(String variant, Metric metric) {
        for (Map.Entry<String, String> group : rowBaselines.entrySet()) {
            if (variant.endsWith(group.getKey())) {
                return group.getValue();
            }
        }
        return baselineFor(metric);
    }

    /** Every variant some ratio divides by. */
    public Set<String> allBaselines() {
        Set<String> all = new LinkedHashSet<>();
        all.add(baselineVariant);
        all.addAll(ratioBaselines.values());
        all.addAll(rowBaselines.values());
        return all;
    }
}
