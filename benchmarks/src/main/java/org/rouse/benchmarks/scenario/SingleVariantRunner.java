package org.rouse.benchmarks.scenario;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Runs one variant of a scenario on its own, for a profiler or a syscall counter attached to the process: the
 * scenario's warm-up rounds, then {@code rounds} measured rounds of the scenario's round length, printing each
 * measured round's values. Writes no report, since a report's ratios need the baseline run in the same process.
 *
 * <pre>{@code
 * new SingleVariantRunner(System.out, System.err).run(scenario, "blocking, thread per connection", 20, options);
 * }</pre>
 */
public final class SingleVariantRunner {

    private final PrintStream out;
    private final PrintStream progress;

    /**
     * @param out where one line per measured round goes
     * @param progress where the warm-up and the variant's description go
     */
    public SingleVariantRunner(PrintStream out, PrintStream progress) {
        this.out = out;
        this.progress = progress;
    }

    /**
     * Runs the variant of {@code scenario} named {@code variantName}.
     *
     * @param rounds measured rounds, or 0 for the scenario's own plan
     * @throws IllegalArgumentException naming the scenario's variants when none is named {@code variantName}
     */
    public void run(Scenario scenario, String variantName, int rounds, Options options) throws Exception {
        List<Variant> variants = scenario.variants(options);
        Variant variant = variants.stream()
                .filter(v -> v.name().equals(variantName))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("scenario " + scenario.name()
                        + " has no variant named '" + variantName + "'; its variants: "
                        + variants.stream().map(v -> "'" + v.name() + "'").collect(Collectors.joining(", "))));
        RoundPlan plan = scenario.plan(options);
        int measured = rounds > 0 ? rounds : plan.measuredRounds();
        progress.printf(
                "%s, %s alone: %d warm-up + %d measured rounds of %d ms%n",
                scenario.name(),
                variant.name(),
                plan.warmupRounds(),
                measured,
                plan.roundDuration().toMillis());
        variant.open();
        try {
            for (int i = 0; i < plan.warmupRounds(); i++) {
                variant.runRound(plan.roundDuration());
            }
            for (int i = 1; i <= measured; i++) {
                Measurement m = StealNotingRound.run(variant, plan.roundDuration());
                out.println("round " + i + ": " + format(m.values()));
            }
        } finally {
            variant.close();
        }
    }

    private static String format(Map<Metric, Double> values) {
        return values.entrySet().stream()
                .map(e -> e.getKey().key() + "="
                        + String.format(Locale.ROOT, "%." + e.getKey().decimals() + "f", e.getValue()))
                .collect(Collectors.joining(" "));
    }
}
