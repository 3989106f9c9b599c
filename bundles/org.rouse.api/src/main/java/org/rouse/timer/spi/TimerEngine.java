package org.rouse.timer.spi;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A timer engine: calls {@link TimerEntry#expire()} when an entry's deadline has passed, and runs tasks on its
 * worker pool. Implemented by provider bundles, used only by the timer front.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li>All methods are thread-safe.
 *   <li>{@link #arm(TimerEntry)} and {@link #drain()} are linearizable with respect to each other: an entry armed
 *       before the drain is returned by it (unless it expired or was disarmed first); an arm that overlaps a drain
 *       returns {@code false}. Once {@code drain()} has returned the engine is empty and usable again (the front may
 *       fall back to it when a better-ranked engine leaves). This is what makes a swap lose nothing.
 *   <li>{@link TimerEntry#expire()} is called at most once per arming, from the engine's own thread, at or after
 *       the entry's deadline, never before. Entries with earlier deadlines expire first.
 *   <li>An engine must not sleep-poll: its dispatcher waits for the next deadline or for a signal.
 * </ul>
 */
@ConsumerType
public interface TimerEngine {

    /** The service property naming an engine, shown in statistics (e.g. {@code "wheel"}, {@code "jdk-scheduled"}). */
    String ENGINE_NAME = "rouse.engine.name";

    /** A short name for logs and statistics. */
    String name();

    /**
     * Arms {@code entry} to expire at {@link TimerEntry#deadlineNanos()}.
     *
     * @return {@code false} if this engine does not accept entries now (a drain is running, or it has shut down);
     *     the caller then arms the entry in whichever engine is active
     */
    boolean arm(TimerEntry entry);

    /**
     * Disarms {@code entry}.
     *
     * <p>A {@code true} result is a promise about this arming as a whole: no {@link TimerEntry#expire()} call for it
     * is made or is still under way, on any of the engine's threads. The front may arm the same entry again at once
     * (a timer's handle is its own arming), and an expiry of the earlier arming that had already started must not
     * take the new one for its own. An engine that cannot stop an expiry it has begun returns {@code false} for it.
     * (Since 1.2.)
     *
     * @return {@code true} if it was armed here and now will not expire
     */
    boolean disarm(TimerEntry entry);

    /**
     * Runs {@code task} on the worker pool.
     *
     * @throws RejectedExecutionException if the engine has shut down (the caller runs it elsewhere)
     */
    void execute(Runnable task);

    /**
     * Takes every armed entry out of this engine and returns it; none of them will expire here. Arms overlapping the
     * drain are refused; afterwards the engine accepts entries again. Tasks already given to
     * {@link #execute(Runnable)} still run.
     */
    List<TimerEntry> drain();

    /** How many times the dispatcher woke up since the engine started. */
    long dispatcherWakeups();

    /** How many entries are armed now. */
    int armedCount();
}
