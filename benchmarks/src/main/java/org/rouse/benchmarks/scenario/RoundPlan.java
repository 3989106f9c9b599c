package org.rouse.benchmarks.scenario;

import java.time.Duration;

/**
 * How many rounds a scenario runs and how long each lasts. Warm-up rounds run exactly like measured ones (interleaved)
 * and are thrown away.
 *
 * <pre>{@code
 * RoundPlan plan = options.quick() ? RoundPlan.QUICK : new RoundPlan(1, 20, Duration.ofMillis(250));
 * }</pre>
 *
 * @param warmupRounds rounds per variant thrown away first
 * @param measuredRounds rounds per variant whose medians are reported
 * @param roundDuration the length of one round of one variant
 */
public record RoundPlan(int warmupRounds, int measuredRounds, Duration roundDuration) {

    /** Seconds in total for a handful of variants: for smoke tests and trying things out. */
    public static final RoundPlan QUICK = new RoundPlan(1, 3, Duration.ofMillis(100));
    /** The default for reported figures: ~0.6 s per variant and round, ten rounds. */
    public static final RoundPlan FULL = new RoundPlan(1, 10, Duration.ofMillis(600));

    public RoundPlan {
        if (warmupRounds < 0 || measuredRounds < 1) {
            throw new IllegalArgumentException(
                    "need warmupRounds >= 0 and measuredRounds >= 1: " + warmupRounds + ", " + measuredRounds);
        }
        if (roundDuration == null || roundDuration.isNegative() || roundDuration.isZero()) {
            throw new IllegalArgumentException("roundDuration must be > 0: " + roundDuration);
        }
    }

    /** E.g. "1 warm-up + 10 measured rounds of 600 ms per variant". */
    public String describe() {
        return warmupRounds + " warm-up + " + measuredRounds + " measured rounds of " + roundDuration.toMillis()
                + " ms per variant";
    }
}
