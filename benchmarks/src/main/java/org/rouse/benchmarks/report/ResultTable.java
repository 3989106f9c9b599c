package org.rouse.benchmarks.report;

import java.util.ArrayList;
import java.util.Collections;
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
        layout.allBaselines().forEach(this::row);
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
     * {@code row}'s value of {@code metric} against the baseline's (the row's group's or the metric's own baseline
     * variant when the layout names one): above 1 means more than the baseline (slower, costlier for latency and cost
     * metrics). When both rows kept their rounds, it is the median over the interleaved cycles of round i of
     * {@code row} divided by round i of the baseline (the two ran seconds apart, under the same outside load, so the
     * pairing cancels what the machine did to both); otherwise, or with fewer than two such cycles, the ratio of the
     * two medians. {@code NaN} when either value is unknown or the baseline's is zero.
     */
    public double ratio(VariantSummary row, Metric metric) {
        List<Double> paired = cycleRatios(row, metric);
        if (paired.size() >= 2) {
            return medianOfSorted(paired);
        }
        double base = byName.get(layout.baselineFor(row.name(), metric)).value(metric);
        double value = row.value(metric);
        if (Double.isNaN(base) || Double.isNaN(value) || base == 0) {
            return Double.NaN;
        }
        return value / base;
    }

    /**
     * The spread of {@link #ratio}: a distribution-free confidence interval for the median of the per-cycle ratios,
     * the k-th lowest and k-th highest of them, with the largest k whose coverage is at least 95 % (the sign test's
     * interval; with 6 to 8 cycles that is the lowest and highest ratio, with 30 the 10th of each end; below 6 cycles
     * it is the lowest and highest with less coverage, which {@link PairedRange#confidence()} gives). Empty for the
     * baseline row itself, for summaries without their rounds, and with fewer than two cycles.
     */
    public Optional<PairedRange> pairedRange(VariantSummary row, Metric metric) {
        return medianInterval(cycleRatios(row, metric));
    }

    /** The median of values sorted in ascending order; {@code NaN} when there are none. */
    public static double medianOfSorted(List<Double> sorted) {
        int n = sorted.size();
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * The sign test's confidence interval for the median of independent values sorted in ascending order: the k-th
     * lowest and k-th highest, with the largest k whose coverage is at least 95 % (below 6 values the lowest and
     * highest, covering less). Empty with fewer than two values.
     */
    public static Optional<PairedRange> medianInterval(List<Double> sorted) {
        int n = sorted.size();
        if (n < 2) {
            return Optional.empty();
        }
        int k = 1;
        while (k + 1 <= n / 2 && signTestCoverage(n, k + 1) >= CONFIDENCE) {
            k++;
        }
        return Optional.of(new PairedRange(sorted.get(k - 1), sorted.get(n - k), n, signTestCoverage(n, k)));
    }

    /**
     * Round i of {@code row} divided by round i of its baseline, for every cycle in which both values are known and
     * the baseline's is not zero, in ascending order; empty for the baseline row itself.
     */
    private List<Double> cycleRatios(VariantSummary row, Metric metric) {
        VariantSummary base = byName.get(layout.baselineFor(row.name(), metric));
        if (row == base) {
            return List.of();
        }
        List<Double> values = row.roundValues(metric);
        List<Double> baseValues = base.roundValues(metric);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(values.size(), baseValues.size()); i++) {
            double value = values.get(i);
            double baseValue = baseValues.get(i);
            if (!Double.isNaN(value) && !Double.isNaN(baseValue) && baseValue != 0) {
                ratios.add(value / baseValue);
            }
        }
        Collections.sort(ratios);
        return ratios;
    }

    /** The coverage the spread aims for. */
    static final double CONFIDENCE = 0.95;

    /**
     * How often the k-th lowest and k-th highest of n values enclose their distribution's median: 1 - 2 P(B <= k - 1)
     * for B binomial with n trials of probability 1/2 (summed in logarithms, so any n works).
     */
    static double signTestCoverage(int n, int k) {
        double logTerm = -n * Math.log(2); // log P(B = 0)
        double below = 0;
        for (int i = 0; i < k; i++) {
            below += Math.exp(logTerm);
            logTerm += Math.log(n - i) - Math.log(i + 1); // log P(B = i + 1)
        }
        return 1 - 2 * below;
    }

    /**
     * A confidence interval for the median of a variant's per-cycle ratios to its baseline (or of per-JVM ratios,
     * {@link ForkTable}).
     *
     * @param pairs how many values it was drawn from (cycles that had both values, or JVMs)
     * @param confidence the interval's coverage (at least {@link #CONFIDENCE} from 6 cycles on)
     */
    public record PairedRange(double lowest, double highest, int pairs, double confidence) {}
}
