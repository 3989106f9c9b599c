package org.rouse.benchmarks.scenario;

import java.time.Duration;

/**
 * One contender of a {@link Scenario}: a Rouse implementation or a baseline, measured round by round.
 *
 * <p>The runner calls {@link #open()} once, then {@link #runRound(Duration)} many times interleaved with the other
 * variants' rounds, then {@link #close()} (also after a failure). Threads a variant starts in {@code open()} must be
 * idle between rounds (blocked until signalled: not spinning, and not waking on a period, as a ticking timer's worker
 * does) so they do not disturb the other variants, and stopped in {@code close()}.
 *
 * <pre>{@code
 * final class ParkFor50us implements Variant {
 *     public String name() { return "parkNanos 50µs"; }
 *     public String description() { return "overshoot of LockSupport.parkNanos(50 µs)"; }
 *     public Measurement runRound(Duration budget) {
 *         RoundRecorder round = RoundRecorder.start();
 *         long end = System.nanoTime() + budget.toNanos();
 *         while (System.nanoTime() < end) { ...; round.recordLatencyNanos(overshoot); }
 *         return round.finish();
 *     }
 * }
 * }</pre>
 */
public interface Variant extends AutoCloseable {

    /** The row label, short and unique within the scenario, e.g. {@code Selector.wakeup()}. */
    String name();

    /** One sentence: what exactly is measured. */
    String description();

    /** Prepares threads, selectors, pools; called once before the first round. */
    default void open() throws Exception {}

    /**
     * Measures one round lasting about {@code budget} (the last operation may run past it).
     *
     * @return the round's values; the runner takes the median of each metric over the measured rounds
     */
    Measurement runRound(Duration budget) throws Exception;

    /** Releases everything {@link #open()} created and waits for its threads to end. */
    @Override
    default void close() throws Exception {}
}
