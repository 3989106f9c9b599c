package org.rouse.benchmarks.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.rouse.benchmarks.measure.LatencyHistogram;

/**
 * One variant's result over all measured rounds: the median of each metric over the rounds (the sum for a
 * {@linkplain Metric#summed() summed} count), each round's own value in
 * round order (to pair a round with the baseline's round of the same cycle), and the latency samples of every round
 * merged (for charts).
 *
 * <pre>{@code
 * VariantSummary s = VariantSummary.of("parkNanos 50µs", "overshoot", rounds);
 * double p99 = s.value(Metrics.P99_US);
 * }</pre>
 */
public final class VariantSummary {

    private final String name;
    private final String description;
    private final int rounds;
    private final Map<Metric, Double> medians;
    private final Map<Metric, List<Double>> roundValues;
    private final LatencyHistogram latency;

    /**
     * A summary with known values (tests, or results computed elsewhere).
     *
     * @param latency merged latency samples, or null
     */
    public VariantSummary(
            String name, String description, int rounds, Map<Metric, Double> medians, LatencyHistogram latency) {
        this(name, description, rounds, medians, Map.of(), latency);
    }

    private VariantSummary(
            String name,
            String description,
            int rounds,
            Map<Metric, Double> medians,
            Map<Metric, List<Double>> roundValues,
            LatencyHistogram latency) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.rounds = rounds;
        this.medians = Collections.unmodifiableMap(new LinkedHashMap<>(medians));
        this.roundValues = Collections.unmodifiableMap(new LinkedHashMap<>(roundValues));
        this.latency = latency;
    }

    /**
     * Summarizes measured rounds: per metric, the median over the rounds that measured it.
     *
     * @throws IllegalArgumentException if {@code rounds} is empty
     */
    public static VariantSummary of(String name, String description, List<Measurement> rounds) {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("rounds must not be empty for " + name);
        }
        Set<Metric> metrics = new LinkedHashSet<>();
        rounds.forEach(r -> metrics.addAll(r.values().keySet()));
        Map<Metric, Double> medians = new LinkedHashMap<>();
        Map<Metric, List<Double>> roundValues = new LinkedHashMap<>();
        for (Metric metric : metrics) {
            double[] values = rounds.stream().mapToDouble(r -> r.value(metric)).toArray();
            medians.put(metric, metric.summed() ? sum(values) : median(values));
            roundValues.put(metric, Arrays.stream(values).boxed().toList());
        }
        LatencyHistogram merged = null;
        for (Measurement round : rounds) {
            if (round.latency().isPresent()) {
                merged = merged == null ? new LatencyHistogram() : merged;
                merged.add(round.latency().get());
            }
        }
        return new VariantSummary(name, description, rounds.size(), medians, roundValues, merged);
    }

    /** The sum of the values that are not {@code NaN}; {@code NaN} when there are none. */
    static double sum(double[] values) {
        double sum = 0;
        boolean any = false;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                sum += v;
                any = true;
            }
        }
        return any ? sum : Double.NaN;
    }

    /** The median of the values that are not {@code NaN}; {@code NaN} when there are none. */
    static double median(double[] values) {
        List<Double> known = new ArrayList<>();
        for (double v : values) {
            if (!Double.isNaN(v)) {
                known.add(v);
            }
        }
        if (known.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = known.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** How many measured rounds the medians are taken over. */
    public int rounds() {
        return rounds;
    }

    /** The median of {@code metric} over the rounds, {@code NaN} when not measured. */
    public double value(Metric metric) {
        return medians.getOrDefault(metric, Double.NaN);
    }

    /**
     * Each measured round's value of {@code metric} in round order ({@code NaN} where that round did not measure it);
     * empty when the rounds are unknown (a summary made from known values).
     */
    public List<Double> roundValues(Metric metric) {
        return roundValues.getOrDefault(metric, List.of());
    }

    /** Every round's latency samples merged, if the variant measures latency. */
    public Optional<LatencyHistogram> latency() {
        return Optional.ofNullable(latency);
    }
}
