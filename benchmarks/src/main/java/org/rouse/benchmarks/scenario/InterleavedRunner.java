package org.rouse.benchmarks.scenario;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a scenario's variants side by side in this process: opens them all, runs round 1 of A, B, C, then round 2 of
 * A, B, C, and so on (warm-up rounds first, the same way), summarizes each variant by the medians over its measured
 * rounds, and closes them all.
 *
 * <p>Why interleave: on a shared, noisy machine a burst of outside load hits one round of every variant instead of
 * all rounds of one variant, and the median over rounds discards it.
 *
 * <pre>{@code
 * ScenarioResult result = new InterleavedRunner(System.err).run(new WakeupFloor(), options);
 * }</pre>
 */
public final class InterleavedRunner {

    private final PrintStream progress;

    /** @param progress where one line per round is printed */
    public InterleavedRunner(PrintStream progress) {
        this.progress = progress;
    }

    /** Runs {@code scenario} as planned for {@code options}. */
    public ScenarioResult run(Scenario scenario, Options options) throws Exception {
        return run(scenario, options, 0);
    }

    /**
     * Runs {@code scenario} as planned for {@code options}, but with {@code measuredRounds} measured rounds per variant
     * unless it is 0.
     */
    public ScenarioResult run(Scenario scenario, Options options, int measuredRounds) throws Exception {
        RoundPlan planned = scenario.plan(options);
        RoundPlan plan = measuredRounds > 0
                ? new RoundPlan(planned.warmupRounds(), measuredRounds, planned.roundDuration())
                : planned;
        List<Variant> variants = scenario.variants(options);
        checkUniqueNames(scenario, variants);
        List<Variant> opened = new ArrayList<>();
        Exception failure = null;
        try {
            for (Variant variant : variants) {
                variant.open();
                opened.add(variant);
            }
            return new ScenarioResult(scenario, plan, measure(scenario, plan, variants));
        } catch (Exception e) {
            failure = e;
            throw e;
        } finally {
            closeAll(opened, failure);
        }
    }

    private List<VariantSummary> measure(Scenario scenario, RoundPlan plan, List<Variant> variants) throws Exception {
        List<List<Measurement>> rounds = new ArrayList<>();
        variants.forEach(v -> rounds.add(new ArrayList<>()));
        int total = plan.warmupRounds() + plan.measuredRounds();
        for (int round = 0; round < total; round++) {
            boolean warmup = round < plan.warmupRounds();
            progress.printf(
                    "%s: %s round %d/%d%n",
                    scenario.name(),
                    warmup ? "warm-up" : "measured",
                    warmup ? round + 1 : round - plan.warmupRounds() + 1,
                    warmup ? plan.warmupRounds() : plan.measuredRounds());
            for (int i = 0; i < variants.size(); i++) {
                Measurement m = StealNotingRound.run(variants.get(i), plan.roundDuration());
                if (!warmup) {
                    rounds.get(i).add(m);
                }
            }
        }
        List<VariantSummary> summaries = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            Variant v = variants.get(i);
            summaries.add(VariantSummary.of(v.name(), v.description(), rounds.get(i)));
        }
        return summaries;
    }

    private static void checkUniqueNames(Scenario scenario, List<Variant> variants) {
        Set<String> names = new HashSet<>();
        for (Variant v : variants) {
            if (!names.add(v.name())) {
                throw new IllegalArgumentException(
                        "scenario " + scenario.name() + " has two variants named '" + v.name() + "'");
            }
        }
        for (String baseline : scenario.layout().allBaselines()) {
            if (!names.contains(baseline)) {
                throw new IllegalArgumentException("scenario " + scenario.name() + " names baseline '" + baseline
                        + "' but has no such variant: " + names);
            }
        }
    }

    private static void closeAll(List<Variant> opened, Exception failure) throws Exception {
        Exception closeFailure = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else if (closeFailure == null) {
                    closeFailure = e;
                } else {
                    closeFailure.addSuppressed(e);
                }
            }
        }
        if (closeFailure != null) {
            throw closeFailure;
        }
    }
}
