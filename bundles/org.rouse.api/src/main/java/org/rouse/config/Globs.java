package org.rouse.config;

import java.util.regex.Pattern;

/**
 * Name patterns in configuration: {@code *} matches any run of characters, {@code ?} one character, everything else
 * is literal. Lock strategy patterns ({@code strategy.patterns} of {@code org.rouse.lock}) and cluster lock names
 * ({@code lock.patterns} of {@code org.rouse.cluster}) use them.
 *
 * <pre>{@code
 * Pattern keys = Globs.compile("keyspace*");
 * keys.matcher("keyspace#3").matches(); // true
 * }</pre>
 */
public final class Globs {

    private Globs() {}

    /**
     * The regular expression of one glob, matched against a whole name with {@link java.util.regex.Matcher#matches()}.
     *
     * @param glob the glob; null is not allowed
     * @return a pattern that matches exactly the names the glob describes (line terminators included)
     */
    public static Pattern compile(String glob) {
        return Pattern.compile(regex(glob), Pattern.DOTALL);
    }

    /**
     * One pattern matching any of {@code globs}; none matches nothing.
     *
     * @param globs the globs; null elements are not allowed
     * @return a pattern that matches exactly the names one of the globs describes
     */
    public static Pattern compileAny(Iterable<String> globs) {
        StringBuilder any = new StringBuilder();
        for (String glob : globs) {
            any.append(any.length() == 0 ? "" : "|").append(regex(glob));
        }
        return Pattern.compile(any.length() == 0 ? "(?!)" : any.toString(), Pattern.DOTALL);
    }

    private static String regex(String glob) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return regex.toString();
    }
}
