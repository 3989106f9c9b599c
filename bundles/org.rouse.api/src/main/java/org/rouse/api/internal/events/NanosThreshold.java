package org.rouse.api.internal.events;

import java.util.Locale;
import java.util.Set;
import jdk.jfr.SettingControl;

/**
 * A JFR setting holding a duration: an event carrying this setting is committed only when its measured figure
 * (lateness, wait, upcall duration) is at least the value. Values are written like JFR's own {@code threshold}
 * setting: {@code "20 ms"}, {@code "500 us"}, {@code "1 s"}, {@code "0 ns"}. With several recordings running, the
 * lowest value wins, so each recording sees at least the events it asked for.
 *
 * <p>One instance exists per event type; JFR creates it (public class, public no-argument constructor).
 */
public final class NanosThreshold extends SettingControl {

    /*
     * Implementation notes.
     *
     * Sources. jdk.jfr.SettingControl's contract (combine / setValue / getValue); the duration syntax of the JFR
     * "threshold" setting (jdk.jfr.internal.Utils.parseTimespan: "<n> ns|us|ms|s|m|h|d").
     *
     * Costs. accept() is one volatile read, and runs only once an event is enabled and a figure was measured.
     */

    /** Used until a recording sets a value: the same 20 ms as jdk.JavaMonitorEnter's threshold in JFR's default.jfc. */
    static final String DEFAULT = "20 ms";

    /** The value as given; written by JFR's settings thread in setValue, read in getValue. */
    private volatile String text = DEFAULT;
    /** The value in nanoseconds; written by setValue, read by any thread committing an event. */
    private volatile long nanos = parse(DEFAULT);

    /** Creates the setting with its default, {@value #DEFAULT}. */
    public NanosThreshold() {}

    @Override
    public String combine(Set<String> values) {
        String lowest = null;
        long lowestNanos = Long.MAX_VALUE;
        for (String value : values) {
            long n = parseOrMax(value);
            if (n < lowestNanos) {
                lowestNanos = n;
                lowest = value;
            }
        }
        return lowest == null ? DEFAULT : lowest;
    }

    @Override
    public void setValue(String value) {
        long n = parseOrMax(value);
        if (n != Long.MAX_VALUE) {
            nanos = n;
            text = value;
        }
    }

    @Override
    public String getValue() {
        return text;
    }

    /** Whether a measured {@code figureNanos} is at or over the threshold. */
    boolean accept(long figureNanos) {
        return figureNanos >= nanos;
    }

    private static long parseOrMax(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Parses {@code "<number> <unit>"} (unit {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m}, {@code h},
     * {@code d}; the space is optional) into nanoseconds.
     *
     * @throws IllegalArgumentException if the text is not such a duration
     */
    static long parse(String value) {
        String s = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("not a duration: " + value);
        }
        long amount = Long.parseLong(s.substring(0, i));
        String unit = s.substring(i).trim();
        long scale = switch (unit) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> throw new IllegalArgumentException("not a duration unit: " + value);
        };
        return Math.multiplyExact(amount, scale);
    }
}
