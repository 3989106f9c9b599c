package org.rouse.api.internal.lock;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.felix.service.command.Descriptor;
import org.osgi.framework.BundleContext;
import org.rouse.api.internal.ShellSupport;
import org.rouse.stats.Percentiles;

/**
 * The lock service's shell commands in the {@code rouse} scope: {@code rouse:locks} (the engine, its strategies,
 * the totals and the most contended locks), {@code rouse:contended} (only the most contended locks) and
 * {@code rouse:strategy} (show or change the default strategy or one lock's strategy through ConfigAdmin). Registered
 * by {@link LockFront} as a plain service object with {@code osgi.command.scope=rouse} (under Karaf's shell without
 * it, for the Action commands of {@code org.rouse.api.internal.karaf}; see
 * {@link org.rouse.api.internal.GogoCommands}); each command writes its report to the calling session (see
 * {@link ShellSupport}).
 *
 * <pre>{@code
 * g! rouse:locks              // totals and the 10 most contended locks
 * g! rouse:locks 50
 * g! rouse:contended 5
 * g! rouse:locks reset        // count afresh from now
 * g! rouse:strategy           // the configured default, patterns and offered strategies
 * g! rouse:strategy fair      // the default strategy, written to org.rouse.lock as config:edit would
 * g! rouse:strategy keyspace#3 jdk   // one lock (its stripe set's name for stripes)
 * }</pre>
 */
public final class LockCommands {

    /** The functions this object offers, for its registration. */
    static final String[] FUNCTIONS = {"locks", "contended", "strategy"};

    /*
     * Help texts, shared by the Gogo functions' @Descriptor and the Karaf Action commands
     * (org.rouse.api.internal.karaf), so both shells describe a command alike.
     */

    /** Help of {@code rouse:locks}. */
    public static final String LOCKS_DEFAULT_HELP = "Lock statistics: engine, strategies, totals and the 10 most"
            + " contended locks with wait and hold percentiles";

    /** Help of {@code rouse:locks [n | reset]}. */
    public static final String LOCKS_HELP =
            "Lock statistics with the n most contended locks, or with 'reset' count every lock afresh from now";

    /** Help of the argument of {@code rouse:locks [n | reset]}. */
    public static final String LOCKS_ARGUMENT_HELP = "how many locks to show (0 to 100000; default 10), or 'reset'";

    /** Help of {@code rouse:contended}. */
    public static final String CONTENDED_DEFAULT_HELP =
            "The 10 most contended locks (by contended acquisitions) with wait and hold percentiles";

    /** Help of {@code rouse:contended [n]}. */
    public static final String CONTENDED_HELP =
            "The n most contended locks (by contended acquisitions) with wait and hold percentiles";

    /** Help of the argument of {@code rouse:contended [n]}. */
    public static final String CONTENDED_N_HELP = "how many locks to show (0 to 100000; default 10)";

    /** Help of {@code rouse:strategy}. */
    public static final String STRATEGY_SHOW_HELP = "The lock strategy configuration: the default, the per-lock"
            + " patterns and the strategies the active engine offers";

    /** Help of {@code rouse:strategy <strategy>}. */
    public static final String STRATEGY_DEFAULT_HELP = "Set the default lock strategy in org.rouse.lock through"
            + " ConfigAdmin (persists like config:edit); live locks swap at once or at their holder's unlock";

    /** Help of {@code rouse:strategy <lock> <strategy>}. */
    public static final String STRATEGY_LOCK_HELP = "Set one lock's strategy: puts 'lock=strategy' first in"
            + " strategy.patterns of org.rouse.lock through ConfigAdmin (persists like config:edit)";

    /** Help of {@code rouse:strategy [lock] <strategy>}, all three forms. */
    public static final String STRATEGY_HELP = "Show the lock strategy configuration, or set the default strategy or"
            + " one lock's through ConfigAdmin (persists like config:edit)";

    /** The three forms of {@code rouse:strategy}, each with its help. */
    public static final String STRATEGY_FORMS_HELP = "rouse:strategy: " + STRATEGY_SHOW_HELP
            + ".\nrouse:strategy <strategy>: " + STRATEGY_DEFAULT_HELP
            + ".\nrouse:strategy <lock> <strategy>: " + STRATEGY_LOCK_HELP
            + "; <lock> is the lock's policy key (a stripe's set name: keyspace#3 gives keyspace), or <lock> itself as"
            + " a glob when no live lock has that name.";

    /** Help of a strategy argument. */
    public static final String STRATEGY_ARGUMENT_HELP =
            "a strategy the active engine offers, e.g. adaptive, fair, jdk, spin-yield";

    /** Help of a lock argument. */
    public static final String LOCK_ARGUMENT_HELP =
            "a lock name as rouse:locks shows it (a stripe's set name is used), or a glob such as keyspace*";

    /** The usage line of {@code rouse:strategy}. */
    public static final String STRATEGY_USAGE = "rouse:strategy [lock] <strategy>";

    private static final int DEFAULT_TOP = 10;
    private static final Pattern STRATEGY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final LockFrontCore core;
    /** The API bundle's context, to reach ConfigAdmin; null in unit tests (strategy changes then fail clearly). */
    private final BundleContext context;

    LockCommands(LockFrontCore core) {
        this(core, null);
    }

    LockCommands(LockFrontCore core, BundleContext context) {
        this.core = core;
        this.context = context;
    }

    /** {@code rouse:locks}: the totals and the 10 most contended locks. */
    @Descriptor(LOCKS_DEFAULT_HELP)
    public void locks() {
        ShellSupport.print(report(DEFAULT_TOP));
    }

    /** {@code rouse:locks n} or {@code rouse:locks reset}. */
    @Descriptor(LOCKS_HELP)
    public void locks(@Descriptor(LOCKS_ARGUMENT_HELP) String arg) {
        if ("reset".equals(arg == null ? null : arg.trim())) {
            core.resetStatistics();
            ShellSupport.print("lock statistics reset\n");
            return;
        }
        ShellSupport.print(report(ShellSupport.count(arg, "n", "rouse:locks [n | reset]")));
    }

    /** {@code rouse:contended}: the 10 most contended locks. */
    @Descriptor(CONTENDED_DEFAULT_HELP)
    public void contended() {
        ShellSupport.print(table(sorted(), DEFAULT_TOP));
    }

    /** {@code rouse:contended n}: the {@code n} most contended locks. */
    @Descriptor(CONTENDED_HELP)
    public void contended(@Descriptor(CONTENDED_N_HELP) String n) {
        ShellSupport.print(table(sorted(), ShellSupport.count(n, "n", "rouse:contended [n]")));
    }

    /** {@code rouse:strategy}: the configured default and patterns, and the strategies on offer. */
    @Descriptor(STRATEGY_SHOW_HELP)
    public void strategy() throws IOException {
        LockStrategyConfig config = config();
        String configured = config.configuredDefault();
        ShellSupport.print(String.format(
                Locale.ROOT,
                "default strategy %s, patterns %s; engine %s offers %s%n",
                configured == null ? StrategyPolicy.DEFAULT_STRATEGY + " (not configured)" : configured,
                config.configuredPatterns(),
                core.engineName(),
                core.strategies().isEmpty()
                        ? "nothing (locks use the fallback mutex)"
                        : new TreeSet<>(core.strategies())));
    }

    /** {@code rouse:strategy name}: sets the default strategy in {@value LockFrontCore#PID} through ConfigAdmin. */
    @Descriptor(STRATEGY_DEFAULT_HELP)
    public void strategy(@Descriptor(STRATEGY_ARGUMENT_HELP) String strategy) throws IOException {
        String name = checkStrategy(strategy, STRATEGY_USAGE);
        String old = config().setDefault(name);
        ShellSupport.print(String.format(
                Locale.ROOT,
                "%s: strategy = %s (was %s)%n",
                LockFrontCore.PID,
                name,
                old == null ? "unset, " + StrategyPolicy.DEFAULT_STRATEGY : old));
    }

    /**
     * {@code rouse:strategy lock name}: puts {@code key=name} first in {@code strategy.patterns} of
     * {@value LockFrontCore#PID}, where {@code key} is the policy key of the live lock named {@code lock} (a stripe
     * set's name for a stripe), or {@code lock} itself (a glob) when no live lock has that name.
     */
    @Descriptor(STRATEGY_LOCK_HELP)
    public void strategy(
            @Descriptor(LOCK_ARGUMENT_HELP) String lock, @Descriptor(STRATEGY_ARGUMENT_HELP) String strategy)
            throws IOException {
        String usage = STRATEGY_USAGE;
        String trimmed = lock == null ? "" : lock.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("lock must not be empty; usage: " + usage);
        }
        String name = checkStrategy(strategy, usage);
        String key = core.policyKeyOf(trimmed).orElse(trimmed);
        String old = config().setPattern(key, name);
        ShellSupport.print(String.format(
                Locale.ROOT,
                "%s: strategy.patterns starts with %s=%s (was %s)%n",
                LockFrontCore.PID,
                key,
                name,
                old == null ? "no entry for " + key : old));
    }

    /** The strategies the active engine offers, sorted (empty while no engine is bound); for shell completion. */
    public Set<String> offeredStrategies() {
        return new TreeSet<>(core.strategies());
    }

    /** The names of the live locks, sorted; for shell completion. */
    public Set<String> lockNames() {
        Set<String> names = new TreeSet<>();
        for (LockFrontCore.LockSnapshot lock : core.snapshot()) {
            names.add(lock.name());
        }
        return names;
    }

    /** The text of {@code rouse:locks n}. */
    public String report(int top) {
        List<LockFrontCore.LockSnapshot> all = sorted();
        LockCounts total = LockCounts.ZERO;
        for (LockFrontCore.LockSnapshot lock : all) {
            total = total.plus(lock.statistics());
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "engine %s, strategies %s, %d locks: %d acquisitions, %d contended, %d spins, %d parks, %d hand-offs,"
                        + " wait %s, longest wait %s%n",
                core.engineName(),
                core.strategies(),
                all.size(),
                total.acquisitions(),
                total.contendedAcquisitions(),
                total.spins(),
                total.parks(),
                total.handoffs(),
                micros(total.waitNanos()),
                micros(total.longestWaitNanos())));
        out.append(table(all, top));
        return out.toString();
    }

    /** Every live lock, most contended first (by contended acquisitions, then acquisitions). */
    private List<LockFrontCore.LockSnapshot> sorted() {
        List<LockFrontCore.LockSnapshot> all = new ArrayList<>(core.snapshot());
        all.sort(Comparator.comparingLong(
                        (LockFrontCore.LockSnapshot l) -> l.statistics().contendedAcquisitions())
                .thenComparingLong(l -> l.statistics().acquisitions())
                .reversed());
        return all;
    }

    private static String table(List<LockFrontCore.LockSnapshot> sorted, int top) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "%-32s %-10s %12s %12s %10s %10s %9s  %-26s %-26s%n",
                "lock",
                "strategy",
                "acquired",
                "contended",
                "spins",
                "parks",
                "hand-offs",
                "wait p50/p99/max (µs)",
                "hold p50/p99/max (µs)"));
        for (LockFrontCore.LockSnapshot lock : sorted.subList(0, Math.min(top, sorted.size()))) {
            LockCounts s = lock.statistics();
            out.append(String.format(
                    Locale.ROOT,
                    "%-32s %-10s %12d %12d %10d %10d %9d  %-26s %-26s%n",
                    lock.name(),
                    lock.strategy(),
                    s.acquisitions(),
                    s.contendedAcquisitions(),
                    s.spins(),
                    s.parks(),
                    s.handoffs(),
                    micros(s.waitNanos()),
                    micros(s.holdNanos())));
        }
        return out.toString();
    }

    /**
     * Returns the trimmed strategy name if the active engine offers it (any well-formed name while no engine is bound,
     * as the front itself accepts then).
     *
     * @throws IllegalArgumentException naming the value and the allowed values
     */
    private String checkStrategy(String strategy, String usage) {
        String name = strategy == null ? "" : strategy.trim();
        Set<String> offered = new TreeSet<>(core.strategies());
        if (offered.isEmpty()) {
            if (!STRATEGY_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + strategy + "' is not a strategy name (letters, digits, '.',"
                        + " '_' or '-'); no lock engine is active to list the strategies; usage: " + usage);
            }
            return name;
        }
        if (!offered.contains(name)) {
            throw new IllegalArgumentException("unknown strategy '" + strategy + "'; the active lock engine ("
                    + core.engineName() + ") offers " + String.join(", ", offered) + "; usage: " + usage);
        }
        return name;
    }

    private LockStrategyConfig config() {
        if (context == null) {
            throw new IllegalStateException("lock strategies can be changed only in an OSGi framework");
        }
        try {
            return new LockStrategyConfig(context);
        } catch (NoClassDefFoundError noConfigAdmin) {
            throw new IllegalStateException("the ConfigAdmin API (org.osgi.service.cm) is not available to the Rouse"
                    + " API bundle: install ConfigAdmin and refresh org.rouse.api, or set " + LockFrontCore.PID
                    + " by other means");
        }
    }

    private static String micros(Percentiles p) {
        if (p.count() == 0) {
            return "-";
        }
        return micros(p.p50Nanos()) + "/" + micros(p.p99Nanos()) + "/" + micros(p.maxNanos());
    }

    private static String micros(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1_000.0);
    }
}
