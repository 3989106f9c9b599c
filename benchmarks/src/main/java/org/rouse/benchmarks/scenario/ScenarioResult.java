package org.rouse.benchmarks.scenario;

import java.util.List;

/**
 * The outcome of running a scenario: its plan and one summary per variant, in the scenario's order.
 *
 * @param scenario what ran
 * @param plan the rounds it ran
 * @param variants one summary per variant
 */
public record ScenarioResult(Scenario scenario, RoundPlan plan, List<VariantSummary> variants) {

    public ScenarioResult {
        variants = List.copyOf(variants);
    }
}
