package org.rouse.api.internal;

import java.util.List;

/**
 * One line of a Rouse health check's result: a level and a message that says what is wrong and which shell command
 * shows more. The checks' threshold logic produces these without any Felix HC type, so it runs (and is tested) where
 * {@code org.apache.felix.hc.api} is absent; {@link HealthResults} turns them into a Felix HC result.
 *
 * <pre>{@code
 * List<HealthFinding> findings = List.of(HealthFinding.warn("timer p99 lateness 31 ms over 20 ms; see rouse:late"));
 * HealthFinding.Level worst = HealthFinding.worst(findings); // WARN
 * }</pre>
 *
 * @param level how bad it is
 * @param message what was found, with the figures, the threshold and where to look
 */
public record HealthFinding(Level level, String message) {

    /** The levels, in the order of Felix HC's {@code Result.Status} they map to. */
    public enum Level {
        /** Within the thresholds; the message gives the figures. */
        OK,
        /** Over a warning threshold, or running on a stand-in. */
        WARN,
        /** Over a critical threshold, or not serving at all. */
        CRITICAL
    }

    public static HealthFinding ok(String message) {
        return new HealthFinding(Level.OK, message);
    }

    public static HealthFinding warn(String message) {
        return new HealthFinding(Level.WARN, message);
    }

    public static HealthFinding critical(String message) {
        return new HealthFinding(Level.CRITICAL, message);
    }

    /** The worst level among {@code findings}; OK for none. */
    public static Level worst(List<HealthFinding> findings) {
        Level worst = Level.OK;
        for (HealthFinding f : findings) {
            if (f.level.compareTo(worst) > 0) {
                worst = f.level;
            }
        }
        return worst;
    }
}
