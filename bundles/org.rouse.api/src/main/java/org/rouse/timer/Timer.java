package org.rouse.timer;

import java.time.Duration;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A handle to one scheduled timer. Handles stay valid across engine swaps.
 *
 * <pre>{@code
 * Timer t = owner.schedule(Duration.ofSeconds(30), e -> expireSession());
 * t.reschedule(Duration.ofSeconds(30)); // activity seen: restart the clock
 * if (t.cancel()) { log.debug("session closed before it expired"); }
 * }</pre>
 */
@ProviderType
public interface Timer {

    /** The owner this timer belongs to. */
    TimerOwner owner();

    /**
     * Cancels the timer. Idempotent.
     *
     * @return {@code true} if this call prevented at least one run (a pending one-shot, or the future runs of a
     *     periodic timer); {@code false} if the timer had already fired, was already cancelled, or its owner is
     *     closed
     */
    boolean cancel();

    /**
     * Replaces the timer's schedule and restarts its clock, like LSL's {@code llSetTimerEvent}: a one-shot timer
     * fires once {@code delay} from now (even if it had fired or was cancelled); a periodic timer fires every
     * {@code delay} from now on, with the same clamping as when it was scheduled. An event already handed to the
     * owner's queue still runs.
     *
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if {@code delay} is negative or too large (or zero for a periodic timer)
     * @throws IllegalStateException if the owner is closed
     */
    void reschedule(Duration delay);

    /** The timer's state now. */
    TimerState state();

    /** Whether the timer repeats. */
    boolean isPeriodic();

    /** The period or fixed delay after clamping to the minimum interval; {@link Duration#ZERO} for a one-shot. */
    Duration period();

    /** How long until the timer is due, or empty if it is not {@linkplain TimerState#SCHEDULED scheduled}. */
    Optional<Duration> remaining();
}
