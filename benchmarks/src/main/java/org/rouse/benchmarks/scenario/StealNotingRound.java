package org.rouse.benchmarks.scenario;

import java.time.Duration;
import org.rouse.benchmarks.measure.CpuSteal;

/**
 * Runs one round of a variant and adds to its measurement the CPU steal during it ({@link Metrics#STEAL_PERCENT}).
 * Rounds are interleaved so that a burst of steal hits one round of every variant; where it lasts longer than a
 * round, it hits some variants' rounds more than others', and the per-variant figure shows which.
 *
 * <pre>{@code
 * Measurement m = StealNotingRound.run(variant, Duration.ofSeconds(5)); // m.value(Metrics.STEAL_PERCENT): e.g. 0.1
 * }</pre>
 */
final class StealNotingRound {

    private StealNotingRound() {}

    static Measurement run(Variant variant, Duration duration) throws Exception {
        CpuSteal.Sample before = CpuSteal.sample();
        Measurement measured = variant.runRound(duration);
        return measured.with(Metrics.STEAL_PERCENT, CpuSteal.percentSince(before));
    }
}
