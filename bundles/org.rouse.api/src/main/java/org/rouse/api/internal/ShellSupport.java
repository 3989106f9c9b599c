package org.rouse.api.internal;

import java.io.PrintStream;
import java.util.Locale;

/**
 * What the Rouse shell commands share: argument parsing that fails with a usage message instead of a Gogo coercion
 * error, and output written to the session.
 *
 * <p>Commands write their report to {@link System#out}: Gogo (Felix and Karaf alike) replaces {@code System.out}
 * with a stream that forwards to the output of the session running the calling thread (its {@code ThreadIO}), so the
 * text reaches an interactive console, {@code bin/client}, an ssh exec and a session created by code. Returning the
 * text instead would print it only in an interactive console.
 *
 * <pre>{@code
 * public void late(String top) {
 *     ShellSupport.print(report(ShellSupport.count(top, "n", "rouse:late [n]")));
 * }
 * }</pre>
 */
public final class ShellSupport {

    /** The largest count a command accepts for "the top n". */
    public static final int MAX_COUNT = 100_000;

    private ShellSupport() {}

    /**
     * Parses a count argument.
     *
     * @param value the argument as typed
     * @param name the argument's name, for the message
     * @param usage the command's usage line, for the message
     * @return the count, 0 to {@link #MAX_COUNT}
     * @throws IllegalArgumentException naming the value, the allowed range and the usage when it is not such a count
     */
    public static int count(String value, String name, String usage) {
        String trimmed = value == null ? "" : value.trim();
        try {
            int n = Integer.parseInt(trimmed);
            if (n >= 0 && n <= MAX_COUNT) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // reported below with the usage
        }
        throw new IllegalArgumentException(String.format(
                Locale.ROOT,
                "%s must be a whole number from 0 to %d, not '%s'; usage: %s",
                name,
                MAX_COUNT,
                value,
                usage));
    }

    /** Writes {@code text} to the calling session's output (see the class comment) and flushes it. */
    public static void print(String text) {
        PrintStream out = System.out;
        out.print(text);
        out.flush();
    }
}
