package org.rouse.timer;

import java.time.Duration;
import java.time.Instant;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A group of timers whose handlers run one at a time, in the order they fell due.
 *
 * <p>Use one owner per independent actor (a script, a session). Owners of one bundle run in parallel with each
 * other on the provider's worker pool.
 *
 * <pre>{@code
 * TimerOwner owner = timers.owner("script-42");
 * Timer timer = owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(50), e -> onTimer(e.missedFirings()));
 * ...
 * owner.close(); // cancels every timer of this owner
 * }</pre>
 */
@ProviderType
public interface TimerOwner extends AutoCloseable {

    /** The name given to {@link TimerService#owner(String)}. */
    String name();

    /**
     * Runs {@code handler} once, after {@code delay}.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code delay} is negative or too large for the nanosecond clock
     * @throws java.util.concurrent.RejectedExecutionException if the bundle's pending-timer cap is reached
     * @throws IllegalStateException if this owner is closed
     */
    Timer schedule(Duration delay, TimerHandler handler);

    /**
     * Runs {@code handler} once, at {@code when}; an instant in the past runs it at once. The instant is converted
     * to the monotonic clock now, so later changes of the wall clock do not move the timer.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code when} is too far away for the nanosecond clock
     * @throws java.util.concurrent.RejectedExecutionException if the bundle's pending-timer cap is reached
     * @throws IllegalStateException if this owner is closed
     */
    Timer scheduleAt(Instant when, TimerHandler handler);

    /**
     * Runs {@code handler} after {@code initialDelay} and then every {@code period}, keeping the phase: the
     * {@code n}th event is due at {@code initialDelay + n * period}. Events missed while the handler was busy are
     * coalesced into the next one.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if a duration is negative or too large, or {@code period} is zero
     * @throws java.util.concurrent.RejectedExecutionException if the bundle's pending-timer cap is reached
     * @throws IllegalStateException if this owner is closed
     */
    Timer scheduleAtFixedRate(Duration initialDelay, Duration period, TimerHandler handler);

    /**
     * Runs {@code handler} after {@code initialDelay} and then again {@code delay} after each run has finished.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if a duration is negative or too large, or {@code delay} is zero
     * @throws java.util.concurrent.RejectedExecutionException if the bundle's pending-timer cap is reached
     * @throws IllegalStateException if this owner is closed
     */
    Timer scheduleWithFixedDelay(Duration initialDelay, Duration delay, TimerHandler handler);

    /**
     * Returns a new {@link java.util.concurrent.ScheduledExecutorService} whose tasks are timers of this owner: they
     * run one at a time with this owner's other handlers, on the provider's workers, and survive engine swaps.
     *
     * <p>Its semantics are the JDK's ({@link java.util.concurrent.ScheduledThreadPoolExecutor} with its default
     * policies): a periodic task that throws stops, and its future completes with the exception; {@code shutdown}
     * rejects new tasks, cancels this view's periodic tasks and lets its delayed one-shots run; {@code shutdownNow}
     * returns every task of this view that has not started (also those already due and waiting behind another
     * handler of the owner), none of which runs afterwards, and interrupts those running. The view terminates only
     * when no task of it runs or will run. Delays and periods too large for the clock, in any unit, are clamped (a
     * huge delay means never), as the JDK does. Both kinds of shutdown affect only the tasks of this view, never
     * other timers of the owner or anyone else's. Differences: periods shorter than the
     * {@linkplain TimerService#minimumInterval() minimum interval} are raised to it, and a fixed-rate task that
     * overruns its period coalesces the missed runs into one instead of running them back to back. Closing the owner
     * cancels the view's tasks and shuts it down.
     *
     * <p>Since the owner runs one handler at a time, the view behaves like a single-thread executor towards its own
     * tasks: a task or handler of this owner that waits for another task of this owner ({@code Future.get()},
     * {@code invokeAll}, {@code invokeAny}, or {@code awaitTermination} of this view) waits until its timeout, or
     * forever without one, because that task can only start once the waiting handler has returned. Hand such work to
     * another owner's view, or wait for it outside this owner's handlers.
     *
     * <pre>{@code
     * ScheduledExecutorService executor = owner.asScheduledExecutorService();
     * ScheduledFuture<?> poll = executor.scheduleWithFixedDelay(this::poll, 0, 1, TimeUnit.SECONDS);
     * ...
     * executor.shutdown();
     * }</pre>
     *
     * @throws IllegalStateException if this owner is closed
     * @since 1.1
     */
    java.util.concurrent.ScheduledExecutorService asScheduledExecutorService();

    /** How many of this owner's timers are waiting for their deadline now. */
    int pendingCount();

    /** Whether {@link #close()} has been called (or the bundle's view released). */
    boolean isClosed();

    /**
     * Cancels every timer of this owner; afterwards scheduling and rescheduling throw {@link IllegalStateException}.
     * Once this method has returned no handler of this owner starts: events already handed to the owner's queue are
     * dropped. A handler running at the time is not waited for. Idempotent.
     */
    @Override
    void close();
}
