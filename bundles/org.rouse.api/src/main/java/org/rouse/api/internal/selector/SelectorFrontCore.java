package org.rouse.api.internal.selector;

import java.nio.channels.SelectableChannel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.rouse.api.internal.events.RouseEvents;
import org.rouse.selector.spi.SelectorEngine;
import org.rouse.selector.spi.SelectorEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine-switching core of the selector front: every registration and loop task goes to the active engine
 * through here, and {@link #swapTo(SelectorEngine)} moves them from one engine to the next. Independent of OSGi
 * and of the front's activation, so engines may be bound before the front activates and tests can drive it
 * directly.
 *
 * <pre>{@code
 * SelectorFrontCore core = new SelectorFrontCore();
 * BundleSelectorView view = new BundleSelectorView(core, "test", () -> 1000);
 * core.swapTo(engine);          // registrations park until an engine is there
 * view.register(channel, SelectionKey.OP_READ, handler);
 * core.swapTo(otherEngine);     // channels move without being closed
 * }</pre>
 */
public final class SelectorFrontCore {

    /*
     * Implementation notes.
     *
     * Sources. The swap protocol of docs/design.md, "Fronts and engines", over the SelectorEngine contract: attach and
     * drain are linearizable (an attach overlapping a drain returns false), and a drained engine accepts entries again.
     *
     * Layout. `swapLock` serializes swaps. `active` is the engine new registrations go to; it changes only under
     * `parkLock`, which also guards the entries and loop tasks parked while there is no engine (or while the active
     * engine refuses because it is shutting down). `claims` maps each channel to the one registration that holds it,
     * across all views.
     *
     * Algorithm. A swap sets active = next first, then drains the engine it replaces and attaches every still-valid
     * entry the drain returns to next. An attach refused by an engine retries on the (new) active engine. Because
     * engines are reusable after a drain (the front falls back to a lower-ranked engine that it drained when a better
     * one arrived), an attach can also succeed on an engine that has stopped being active: a thread that read `active`
     * just before a swap. attach() therefore re-reads `active` after a successful attach; if it changed, it takes the
     * entry back with detach() and retries. If detach() finds nothing, either a swap's drain returned the entry (and
     * re-attaches it) or the old engine has shut down since, which deregisters what it holds and returns it to no one.
     * The two are told apart by the handle's swapDrains counter, incremented under swapLock by every swap whose drain
     * returns the entry: attach() reads it before attaching and, after a failed detach(), again under swapLock (so
     * every swap whose drain could have returned the entry has finished). Changed: a swap owns the entry. Unchanged
     * (and the handle still valid): the engine dropped it, and attach() retries on the active engine. Cancel/close
     * versus swap: a handle first leaves the VALID state, then detaches from the active
     * engine; every attacher checks validity after attaching and detaches again if the handle ended meanwhile.
     * Deregistration (cancel returns once no selector holds the channel) asks the active engine and, while a swap
     * drains the previous one, that engine too: `draining` is set before `active` changes and cleared after the drain,
     * so a detach that reads the new `active` also sees the engine whose drain may not have flushed the channel yet.
     *
     * Invariants.
     * 1. After a swap, exactly one party attaches each live entry to the new engine: the attacher or the swap's drain.
     *    A valid handle's entry is, at every moment outside a swap, attached to an engine that selects it or will
     *    return it from a drain, or parked, or held by the one thread inside attach() for it.
     * 2. An entry that ends during a swap is never left attached.
     * 3. A parker either sees the new engine or is seen by the swap that hands the parked work to it (`active` changes
     *    only under `parkLock`).
     * 4. One channel is claimed by at most one registration across all views (`claims`), so no bundle can take over a
     *    channel another bundle registered.
     */

    private static final Logger LOG = LoggerFactory.getLogger(SelectorFrontCore.class);

    /** The engine new work goes to; written by swapTo under swapLock and parkLock, read by everyone. */
    private volatile SelectorEngine active;

    /** The engine a swap is draining now, or null; written by swapTo under swapLock, read by detach. */
    private volatile SelectorEngine draining;

    private static final CompletionStage<Void> COMPLETED = CompletableFuture.completedStage(null);

    /** Serializes swaps. */
    private final Object swapLock = new Object();

    /** Guards the parked work and every write of {@code active}. */
    private final Object parkLock = new Object();

    /** Registrations waiting for an engine; guarded by parkLock. */
    private final Set<ChannelHandle> parkedHandles = new LinkedHashSet<>();

    /** Loop tasks waiting for an engine; guarded by parkLock. */
    private final List<Runnable> parkedTasks = new ArrayList<>();

    /** Channel to its registration, across all views; put/remove by registering and ending handles. */
    private final ConcurrentMap<SelectableChannel, ChannelHandle> claims = new ConcurrentHashMap<>();

    /** The pool queue length the health check saw last; swapped by each check (SelectorHealthCheck), atomic. */
    private final AtomicLong queueSeenByHealthCheck = new AtomicLong();

    /** Records {@code queued} as the queue length seen now and returns the one seen by the previous check. */
    long swapQueueSeen(long queued) {
        return queueSeenByHealthCheck.getAndSet(queued);
    }

    /** The active engine, or {@code null}. */
    public SelectorEngine active() {
        return active;
    }

    /** The active engine's name, or {@code "none"}. */
    public String engineName() {
        SelectorEngine e = active;
        return e == null ? "none" : e.name();
    }

    /**
     * Makes {@code next} (possibly {@code null}) the active engine and moves every registration and parked task to
     * it. Returns when the previous engine has been drained and its entries handed to {@code next}.
     */
    public void swapTo(SelectorEngine next) {
        synchronized (swapLock) {
            SelectorEngine previous = active;
            if (previous == next) {
                return;
            }
            long start = System.nanoTime();
            List<ChannelHandle> parked;
            List<Runnable> tasks;
            draining = previous; // before active changes: a cancel that sees the new engine also sees this one
            synchronized (parkLock) {
                active = next;
                if (next == null) {
                    parked = List.of();
                    tasks = List.of();
                } else {
                    parked = new ArrayList<>(parkedHandles);
                    parkedHandles.clear();
                    tasks = new ArrayList<>(parkedTasks);
                    parkedTasks.clear();
                }
            }
            LOG.info(
                    "Selector engine switched from {} to {}",
                    previous == null ? "none" : previous.name(),
                    next == null ? "none" : next.name());
            if (previous != null) {
                List<SelectorEntry> drainedEntries;
                try {
                    drainedEntries = previous.drain(); // a cancel meanwhile also waits for this drain's flush
                } finally {
                    draining = null;
                }
                for (SelectorEntry entry : drainedEntries) {
                    if (entry instanceof ChannelHandle.EngineEntry ours) {
                        ours.handle().swapDrains.incrementAndGet();
                        if (ours.handle().isValid()) {
                            attach(ours.handle());
                        }
                    }
                }
            }
            for (ChannelHandle handle : parked) {
                if (handle.isValid()) {
                    attach(handle);
                }
            }
            for (Runnable task : tasks) {
                execute(task);
            }
            RouseEvents.engineSwap(
                    "selector",
                    previous == null ? null : previous.name(),
                    next == null ? null : next.name(),
                    System.nanoTime() - start,
                    claims.size());
        }
    }

    /** Claims {@code handle.channel()} for {@code handle}; {@code false} if another registration has it. */
    boolean claim(ChannelHandle handle) {
        return claims.putIfAbsent(handle.channel(), handle) == null;
    }

    /** Releases the claim of an ended registration. */
    void unclaim(ChannelHandle handle) {
        claims.remove(handle.channel(), handle);
    }

    /** Attaches the handle's entry to the active engine, or parks it. */
    void attach(ChannelHandle handle) {
        SelectorEntry entry = handle.entry();
        while (true) {
            int drainsSeen = handle.swapDrains.get();
            SelectorEngine engine = active;
            if (engine == null || !engine.attach(entry)) {
                synchronized (parkLock) {
                    if (active == engine) {
                        parkedHandles.add(handle);
                        return;
                    }
                }
                continue; // a swap happened: retry on the new engine
            }
            if (active != engine) {
                if (engine.detach(entry)) {
                    continue; // attached to an engine a swap has left and its drain missed us: move ourselves
                }
                if (takenBySwap(handle, drainsSeen) || !handle.isValid()) {
                    return; // a swap's drain took the entry and re-attaches it, or the registration ended
                }
                continue; // the old engine shut down and dropped the entry: attach it to the active one
            }
            if (!handle.isValid()) {
                engine.detach(entry);
            }
            return;
        }
    }

    /** Whether a swap's drain has returned the handle's entry since {@code drainsSeen} was read. */
    private boolean takenBySwap(ChannelHandle handle, int drainsSeen) {
        synchronized (swapLock) { // every swap whose drain could have returned the entry has finished
            return handle.swapDrains.get() != drainsSeen;
        }
    }

    /**
     * Deregisters the handle's entry from the active engine, from an engine a swap is draining, and from the parked
     * set. Waits as {@link SelectorEngine#deregister} does (never on a loop thread, never for an upcall, bounded).
     *
     * @return a stage completed once no engine's selector holds the channel
     */
    CompletionStage<Void> detach(ChannelHandle handle) {
        SelectorEntry entry = handle.entry();
        SelectorEngine engine = active;
        SelectorEngine drained = draining;
        CompletionStage<Void> left = COMPLETED;
        if (engine != null) {
            left = both(left, engine.deregister(entry));
        }
        if (drained != null && drained != engine) {
            left = both(left, drained.deregister(entry)); // its drain may not have flushed this channel yet
        }
        synchronized (parkLock) {
            parkedHandles.remove(handle);
        }
        return left;
    }

    private static CompletionStage<Void> both(CompletionStage<Void> a, CompletionStage<Void> b) {
        if (b == null || b.toCompletableFuture().isDone()) {
            return a;
        }
        return a.toCompletableFuture().isDone() ? b : a.thenCombine(b, (x, y) -> null);
    }

    /** Re-applies the handle's interest operations in the active engine (waking its loop). */
    void update(ChannelHandle handle) {
        SelectorEngine engine = active;
        if (engine != null) {
            engine.update(handle.entry());
        }
    }

    /** Wakes the active engine's loop; nothing to wake without one. */
    void wakeup() {
        SelectorEngine engine = active;
        if (engine != null) {
            engine.wakeup();
        }
    }

    /** Runs {@code task} on the active engine's loop, or parks it until an engine appears. */
    void execute(Runnable task) {
        while (true) {
            SelectorEngine engine = active;
            if (engine != null) {
                try {
                    engine.execute(task);
                    return;
                } catch (RejectedExecutionException shuttingDown) {
                    // park or retry below
                }
            }
            synchronized (parkLock) {
                if (active == engine) {
                    parkedTasks.add(task);
                    return;
                }
            }
        }
    }
}
