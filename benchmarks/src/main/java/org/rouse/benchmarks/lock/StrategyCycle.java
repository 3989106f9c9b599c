package org.rouse.benchmarks.lock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.rouse.api.internal.lock.LockFrontCore;

/**
 * Reconfigures a lock front's strategy every 10 ms through a cycle of strategies, as an operator would, for the swap
 * scenarios; a one-element cycle never swaps (their reference rows).
 *
 * <pre>{@code
 * StrategyCycle cycle = new StrategyCycle(core, "adaptive", "jdk");   // configures "adaptive" now
 * long elapsed = workers.round(cycle::swapUntil, budgetNanos);          // "jdk", "adaptive", ... every 10 ms
 * }</pre>
 */
final class StrategyCycle {

    private static final long SWAP_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final LockFrontCore core;
    private final String[] strategies;
    /** The index of the strategy configured last; only the driving thread touches it. */
    private int current;

    /** Configures {@code strategies[0]} on {@code core} now. */
    StrategyCycle(LockFrontCore core, String... strategies) {
        if (strategies.length == 0) {
            throw new IllegalArgumentException("a cycle needs at least one strategy");
        }
        this.core = core;
        this.strategies = strategies.clone();
        configure(strategies[0]);
    }

    /** The strategy configured first. */
    String first() {
        return strategies[0];
    }

    /** Whether the cycle swaps at all. */
    boolean swaps() {
        return strategies.length > 1;
    }

    /** The cycle as a row describes it, e.g. {@code "adaptive → jdk"}. */
    String describe() {
        return String.join(" → ", strategies);
    }

    /** Moves to the next strategy every 10 ms until {@code deadline} (System.nanoTime(); pacing, not waiting). */
    void swapUntil(long deadline) {
        for (long now = System.nanoTime(); now < deadline; now = System.nanoTime()) {
            LockSupport.parkNanos(Math.min(SWAP_PERIOD_NANOS, deadline - now));
            if (swaps()) {
                current = (current + 1) % strategies.length;
                configure(strategies[current]);
            }
        }
    }

    private void configure(String strategy) {
        if (!core.configure(strategy, new String[0])) {
            throw new IllegalStateException("the lock front refused strategy " + strategy);
        }
    }
}
