package org.rouse.api.internal.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One front's figures at one instant, as a {@link ConsoleSource} reports them: the engine's name, counters that only
 * grow (shown as rates per second), gauges (shown as they are), optionally the cumulative lateness histogram in
 * nanoseconds (shown as percentiles per second and over the last minute) and the rows of a top list.
 *
 * <p>Not thread-safe: filled and read by the sampling thread only.
 */
public final class ConsoleReading {

    private String engine = "none";
    private final Map<String, Long> counters = new LinkedHashMap<>();
    private final Map<String, Double> gauges = new LinkedHashMap<>();
    private Histogram lateness;
    private final List<Map<String, Object>> top = new ArrayList<>();

    /** The active engine's name ({@code none} while a standby or fallback stands in). */
    public ConsoleReading engine(String name) {
        this.engine = name == null ? "none" : name;
        return this;
    }

    /** A count since some start that only grows until a reset or an engine swap; the page shows its rate. */
    public ConsoleReading counter(String name, long value) {
        counters.put(name, value);
        return this;
    }

    /** A value shown as it is (threads now, timers pending now). */
    public ConsoleReading gauge(String name, double value) {
        gauges.put(name, value);
        return this;
    }

    /** Every lateness sample so far in nanoseconds; the reading keeps {@code histogram}, so pass a fresh one. */
    public ConsoleReading lateness(Histogram histogram) {
        this.lateness = histogram;
        return this;
    }

    /** Adds one row of this service's top list (e.g. a contended lock), in display order. */
    public ConsoleReading topRow(Map<String, Object> row) {
        top.add(row);
        return this;
    }

    String engine() {
        return engine;
    }

    Map<String, Long> counters() {
        return counters;
    }

    Map<String, Double> gauges() {
        return gauges;
    }

    Histogram lateness() {
        return lateness;
    }

    List<Map<String, Object>> top() {
        return top;
    }
}
