package org.rouse.lock.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The per-lock eventual-fairness timer of the {@code adaptive} strategies: an unlock that finds threads parked asks
 * {@link #dueAt(long)}; when the timer has expired it answers true once and re-arms itself at a random point within
 * the next {@code adaptive.fairness.bound.us}, so a lock makes on average one fair hand-off per half bound, whatever
 * the waiters' ages (Rust parking_lot's {@code FairTimeout}: "be fair" about once per 0.5 ms on average).
 *
 * <p>Not thread-safe: each lock reads and re-arms its timer under its queue's monitor.
 */
final class FairnessTimer {

    /** The engine's current tuning; read when re-arming. */
    private final Supplier<AdaptiveTuning> tuning;
    /** {@code System.nanoTime()} after which the next fair hand-off is due; guarded by the owner's monitor. */
    private long dueAfter;

    FairnessTimer(Supplier<AdaptiveTuning> tuning) {
        this.tuning = tuning;
        this.dueAfter = System.nanoTime() + nextInterval(tuning.get());
    }

    /** True if a fair hand-off is due at {@code now} (a {@code System.nanoTime()}); then re-arms the timer. */
    boolean dueAt(long now) {
        if (now - dueAfter < 0L) {
            return false;
        }
        dueAfter = now + nextInterval(tuning.get());
        return true;
    }

    /** Moves the timer {@code nanos} from now; for tests that need barging or a hand-off on cue. */
    void rearm(long nanos) {
        dueAfter = System.nanoTime() + nanos;
    }

    /** A random time in [0, bound): on average one fair hand-off per half bound, as parking_lot's 0..1 ms. */
    private static long nextInterval(AdaptiveTuning tuning) {
        return ThreadLocalRandom.current().nextLong(Math.max(1L, tuning.fairnessBoundNanos()));
    }
}
