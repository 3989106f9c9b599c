package org.rouse.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Collects the problems of one configuration, so that all of them are reported at once. Not thread-safe: use one
 * instance per validation.
 */
public final class ConfigCheck {

    private final String pid;
    private final List<String> problems = new ArrayList<>();

    /** Starts checking a configuration of {@code pid}. */
    public ConfigCheck(String pid) {
        this.pid = pid;
    }

    /** Returns {@code value}, recording a problem if it is outside {@code [min, max]}. */
    public long inRange(String property, long value, long min, long max) {
        if (value < min || value > max) {
            problems.add(property + " = " + value + " is outside the allowed range [" + min + ", " + max + "]");
        }
        return value;
    }

    /** Returns {@code value}, recording a problem if it is not a number within {@code [min, max]}. */
    public double inRange(String property, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            problems.add(property + " = " + value + " is outside the allowed range [" + min + ", " + max + "]");
        }
        return value;
    }

    /** Returns {@code value}, recording a problem if it is not one of {@code allowed}. */
    public String oneOf(String property, String value, Collection<String> allowed) {
        if (value == null || !allowed.contains(value)) {
            problems.add(property + " = " + value + " is not one of " + allowed);
        }
        return value;
    }

    /** Records a problem found by the caller's own check. */
    public void problem(String property, Object value, String allowed) {
        problems.add(property + " = " + value + " is not allowed: " + allowed);
    }

    /** Whether no problem was recorded. */
    public boolean passed() {
        return problems.isEmpty();
    }

    /** The problems recorded so far. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** One message for the log: the PID, every problem, and that the last good configuration stays. */
    public String rejection() {
        return "Rejected configuration of " + pid + ": " + String.join("; ", problems)
                + ". The last good configuration stays in force.";
    }
}
