package org.rouse.benchmarks.scenario;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.rouse.benchmarks.measure.LatencyHistogram;

/**
 * What one round of one variant measured: a value per metric, and the latency distribution when there is one.
 * Immutable once built; a missing or unmeasurable value is {@code NaN}.
 *
 * <pre>{@code
 * Measurement m = Measurement.builder().put(Metrics.OPS, 1200).put(fairness, 0.97).build();
 * }</pre>
 */
public final class Measurement {

    private final Map<Metric, Double> values;
    private final LatencyHistogram latency;

    private Measurement(Map<Metric, Double> values, LatencyHistogram latency) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.latency = latency;
    }

    /** Starts a new measurement. */
    public static Builder builder() {
        return new Builder();
    }

    /** The value of {@code metric}, {@code NaN} when it was not measured. */
    public double value(Metric metric) {
        return values.getOrDefault(metric, Double.NaN);
    }

    /** Every measured value, in the order they were put. */
    public Map<Metric, Double> values() {
        return values;
    }

    /** A copy of this measurement with {@code metric} set to {@code value} (replacing an earlier one). */
    public Measurement with(Metric metric, double value) {
        Map<Metric, Double> more = new LinkedHashMap<>(values);
        more.put(metric, value);
        return new Measurement(more, latency);
    }

    /** The round's latency distribution, if the variant measures latency. */
    public Optional<LatencyHistogram> latency() {
        return Optional.ofNullable(latency);
    }

    /** Collects the values of a {@link Measurement}. Not thread-safe. */
    public static final class Builder {
        private final Map<Metric, Double> values = new LinkedHashMap<>();
        private LatencyHistogram latency;

        private Builder() {}

        /** Sets the value of {@code metric} (replacing an earlier one). */
        public Builder put(Metric metric, double value) {
            values.put(metric, value);
            return this;
        }

        /** Attaches the round's latency distribution. */
        public Builder latency(LatencyHistogram histogram) {
            this.latency = histogram;
            return this;
        }

        public Measurement build() {
            return new Measurement(values, latency);
        }
    }
}
