package org.rouse.selector.spi;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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

    /**
     * Detaches the entry as {@link #detach(SelectorEntry)} does and reports when its channel has left every selector
     * of this engine: each key cancelled and flushed by a selection operation, so the channel may be put into
     * blocking mode or registered elsewhere. The front calls it when a registration is cancelled or closed.
     *
     * <p>Waiting: returns only after the loop that served the entry has flushed its key, except on this engine's
     * own loop threads (a loop flushes its own key at once and never waits for another loop) and except that the
     * wait is bounded by the engine's own setting (it then logs and returns). Called from inside an upcall of this
     * entry, the calling worker releases any registration of its own (a watch selector) before returning. Never
     * waits for an upcall running on another thread: the stage completes once that upcall has let the channel go.
     * Drains in flight count too: if this engine is still flushing a drain, the stage includes that flush.
     *
     * <p>The default detaches and returns a completed stage: right for an engine whose detach deregisters at once.
     *
     * @return a stage completed once no selector of this engine holds the channel; {@code null} if the entry was
     *     neither attached here nor held by any of this engine's selectors
     * @since 1.2
     */
    default CompletionStage<Void> deregister(SelectorEntry entry) {
        return detach(entry) ? CompletableFuture.completedFuture(null) : null;
    }

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
     *
     * <p>Bounded: a loop stuck in a consumer callback (an inline handler or an accept handler factory that blocks)
     * cannot deregister its channels, so the drain waits for each loop only up to a bound of the engine's own
     * configuration. It then returns every entry anyway, with a warning; the stuck loop cancels and flushes its
     * keys when the callback returns, and never dispatches an entry it no longer owns. The channels are meanwhile
     * also registered with the next engine (a channel may belong to several selectors); an entry whose upcall is
     * still running selects nothing there until that upcall returns and re-arms it.
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
