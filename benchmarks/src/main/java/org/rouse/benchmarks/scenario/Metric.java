package org.rouse.benchmarks.scenario;

import java.util.Objects;

/**
 * One measured quantity: a column of a report. Compared by {@link #key()}.
 *
 * <pre>{@code
 * Metric fairness = new Metric("jain_fairness", "Jain's fairness", "", 3);
 * }</pre>
 *
 * @param key machine-readable name (the CSV column), e.g. {@code p99_us}
 * @param header human-readable name (the Markdown column), e.g. {@code p99}
 * @param unit unit shown next to the header, e.g. {@code µs}; empty for counts and ratios
 * @param decimals digits after the decimal point in the Markdown table
 * @param summed whether a variant's cell is the sum over its rounds (counts that must stay 0, such as violations,
 *     where a median would hide a round that saw one) rather than the median
 */
public record Metric(String key, String header, String unit, int decimals, boolean summed) {

    /** A metric whose cell is the median over the rounds. */
    public Metric(String key, String header, String unit, int decimals) {
        this(key, header, unit, decimals, false);
    }

    /** A count whose cell is its sum over the rounds, e.g. violations, which must stay 0 in every round. */
    public static Metric summedCount(String key, String header) {
        return new Metric(key, header, "", 0, true);
    }

    public Metric {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(unit, "unit");
        if (!key.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("key must be lower-case letters, digits and '_': " + key);
        }
        if (decimals < 0 || decimals > 6) {
            throw new IllegalArgumentException("decimals must be within [0, 6]: " + decimals);
        }
    }

    /** The Markdown column title, e.g. {@code p99 (µs)}. */
    public String title() {
        return unit.isEmpty() ? header : header + " (" + unit + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Metric m && key.equals(m.key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }
}
