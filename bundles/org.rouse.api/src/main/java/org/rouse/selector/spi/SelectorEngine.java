package org.rouse.selector.spi;

import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A selector engine: selects channels and calls {@link SelectorEntry#dispatch(int)} for ready ones, on its loop
 * thread for {@linkplain SelectorEntry#inline() inline} entries and on its worker pool otherwise. Implemented by
 * provider bundles, used only by the selector front.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li>All methods are thread-safe.
 *   <li>Before handing a ready pool entry to a worker the engine stops selecting it (interest operations zero on
 *       its key), so one entry never has two dispatches at once. It does not re-arm after the dispatch: the front
 *       calls {@link #update(SelectorEntry)} on whichever engine is active by then.
 *   <li>{@link #update(SelectorEntry)} applies {@link SelectorEntry#interestOps()} at once: on the loop thread
 *       directly, from any other thread by queueing the change and waking the loop (coalesced).
 *   <li>{@link #attach(SelectorEntry)} and {@link #drain()} are linearizable: an entry attached before the drain is
 *       returned by it (unless detached first); an attach overlapping it returns {@code false}. After the drain
 *       returns, the engine is empty and accepts entries again, so the front can fall back to it later (a
 *       lower-ranked engine drained when a better one arrived becomes active again when that one leaves). The front
 *       therefore re-checks, after each successful attach, that the engine is still the active one.
 *   <li>No sleep-polling: the loop blocks in select until a channel is ready or it is woken.
 * </ul>
 */
@ConsumerType
public interface SelectorEngine {

    /** A short name for logs and statistics. */
    String name();

    /**
     * Registers {@code entry.channel()} with one of this engine's selectors for {@code entry.interestOps()}.
     *
     * @return {@code false} if this engine no longer accepts entries (drained or shut down)
     */
    boolean attach(SelectorEntry entry);

    /** Applies the entry's current {@link SelectorEntry#interestOps()}; ignored if it is not attached here. */
    void update(SelectorEntry entry);

    /**
     * Deregisters the entry's channel from this engine, leaving it open.
     *
     * @return {@code true} if it was attached here
     */
    boolean detach(SelectorEntry entry);

    /** Wakes the loop(s) if blocked in select; coalesced. */
    void wakeup();

    /**
     * Runs {@code task} on a loop thread.
     *
     * @throws RejectedExecutionException if the engine has shut down
     */
    void execute(Runnable task);

    /**
     * Refuses attaches while it runs, deregisters every channel from this engine's selectors (leaving them open)
     * and returns their entries; afterwards the engine is empty and usable again. Dispatches in progress finish;
     * they re-arm through the front into the next engine.
     */
    List<SelectorEntry> drain();

    /** Wakeups requested since the engine started. */
    long wakeupsRequested();

    /** Wakeups written to a selector since the engine started. */
    long wakeupsWritten();

    /**
     * The engine's own counters, by name, in a stable order (for example {@code select.cycles}, {@code rebuilds},
     * {@code pool.threads.created}); shown by the {@code rouse:selector} Gogo command. None by default.
     *
     * @since 1.1
     */
    default Map<String, Long> counters() {
        return Map.of();
    }
}
