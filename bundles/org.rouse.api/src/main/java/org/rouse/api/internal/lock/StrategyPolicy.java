package org.rouse.api.internal.lock;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.rouse.config.ConfigCheck;
import org.rouse.config.Globs;

/**
 * Which strategy a lock of a given name gets: the first {@code glob=strategy} pattern that matches the name, else
 * the default. Immutable.
 *
 * <pre>{@code
 * StrategyPolicy policy = StrategyPolicy.parse("jdk", new String[] {"keyspace*=fair"}, null, check);
 * policy.strategyFor("keyspace-users"); // "fair"
 * policy.strategyFor("cache");          // "jdk"
 * }</pre>
 */
final class StrategyPolicy {

    static final String STRATEGY = "strategy";
    static final String PATTERNS = "strategy.patterns";
    static final String DEFAULT_STRATEGY = "adaptive";
    static final StrategyPolicy DEFAULT = new StrategyPolicy(DEFAULT_STRATEGY, List.of());

    private static final Pattern STRATEGY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final String NAME_SYNTAX = "a strategy name: letters, digits, '.', '_' or '-'";

    private final String defaultStrategy;
    private final List<Rule> rules;

    private StrategyPolicy(String defaultStrategy, List<Rule> rules) {
        this.defaultStrategy = defaultStrategy;
        this.rules = rules;
    }

    /**
     * Parses and checks a configuration, recording every problem in {@code check}.
     *
     * @param offered the strategies of the active engine, or null when none is bound (then only syntax is checked)
     * @return the policy, or null if {@code check} recorded a problem
     */
    static StrategyPolicy parse(String strategy, String[] patterns, Set<String> offered, ConfigCheck check) {
        String trimmed = strategy == null ? "" : strategy.trim();
        checkName(STRATEGY, trimmed, offered, check);
        List<Rule> rules = new ArrayList<>();
        for (String entry : patterns == null ? new String[0] : patterns) {
            int eq = entry == null ? -1 : entry.lastIndexOf('=');
            String glob = eq < 0 ? "" : entry.substring(0, eq).trim();
            String name = eq < 0 ? "" : entry.substring(eq + 1).trim();
            if (glob.isEmpty() || name.isEmpty()) {
                check.problem(PATTERNS, entry, "each entry must be 'glob=strategy', e.g. 'keyspace*=fair'");
                continue;
            }
            if (checkName(PATTERNS, name, offered, check)) {
                rules.add(new Rule(glob, Globs.compile(glob), name));
            }
        }
        return check.passed() ? new StrategyPolicy(trimmed, List.copyOf(rules)) : null;
    }

    private static boolean checkName(String property, String name, Set<String> offered, ConfigCheck check) {
        if (!STRATEGY_NAME.matcher(name).matches()) {
            check.problem(property, name, NAME_SYNTAX);
            return false;
        }
        if (offered != null && !offered.contains(name)) {
            check.problem(property, name, "the active engine offers " + offered);
            return false;
        }
        return true;
    }

    /** The configured strategy for a lock whose policy key is {@code name}. */
    String strategyFor(String name) {
        for (Rule rule : rules) {
            if (rule.regex.matcher(name).matches()) {
                return rule.strategy;
            }
        }
        return defaultStrategy;
    }

    /** Every strategy name this policy can answer. */
    Set<String> strategies() {
        Set<String> all = new LinkedHashSet<>();
        all.add(defaultStrategy);
        for (Rule rule : rules) {
            all.add(rule.strategy);
        }
        return all;
    }

    @Override
    public String toString() {
        return "strategy=" + defaultStrategy + ", patterns=" + rules;
    }

    private record Rule(String glob, Pattern regex, String strategy) {
        @Override
        public String toString() {
            return glob + "=" + strategy;
        }
    }
}
