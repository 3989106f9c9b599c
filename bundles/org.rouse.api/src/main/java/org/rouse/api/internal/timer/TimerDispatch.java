package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes armings and tasks to the active timer engine and moves them when the active engine changes.
 */
final class TimerDispatch {

    /*
     * Implementation notes.
     *
     * Sources. The TimerEngine contract: arm and drain are linearizable, and a drained engine accepts entries again.
     *
     * Layout. `active` is the engine new work goes to. `swapLock` serializes swaps and guards `parkedEntries` and
     * `parkedTasks`, where armings and tasks wait while no engine exists; they are handed to the next engine that
     * appears.
     *
     * Algorithm. The swap runs under `swapLock`: it publishes active = next first, then drains the engine it replaces
     * and arms what the drain returned in next. An `arm` racing with a swap either reached the old engine before the
     * drain (and is moved by it) or is refused by it; a refused caller then takes `swapLock`, which makes it wait for
     * the swap to finish, and retries on the new engine. An arm that reached the old engine after its drain (which it
     * accepts again, so that the front can fall back to it) finds `active` changed and takes the entry back with
     * disarm; if that fails the drain had it and moves it. An entry cancelled while it is between engines is filtered
     * out (Arming.isLive()), checked again after arming so that a cancel racing with the move leaves nothing armed.
     *
     * Invariants.
     * 1. `parkedEntries` is non-empty only while active == null.
     * 2. No entry is left behind in a swapped-out engine: when `arm` returns, the entry is in the engine that was
     *    active at its last check, or in what a drain returned, which the swap arms in the next engine.
     * 3. Exactly-once firing does not depend on any of this: it is decided by the CAS on the handle's armed reference.
     *
     * Costs. An arm with no swap in progress is a volatile read and the engine's arm; `swapLock` is taken only when the
     * engine refuses, i.e. during a swap or while no engine exists.
     */

    private static final Logger LOG = LoggerFactory.getLogger(TimerDispatch.class);

    /** Serializes swaps, and parking against swaps. */
    private final Object swapLock = new Object();
    /** The engine new work goes to; written under {@link #swapLock}, read without it. */
    private volatile TimerEngine active;
    /** Armings waiting for an engine; guarded by {@link #swapLock}, non-empty only while {@code active == null}. */
    private final Set<TimerEntry> parkedEntries = new LinkedHashSet<>();
    /** Tasks waiting for an engine; guarded by {@link #swapLock}. */
    private final List<Runnable> parkedTasks = new ArrayList<>();
    /** Swaps done; incremented under {@link #swapLock}, read without it. */
    private final AtomicLong swaps = new AtomicLong();
    /** The pause of the last swap; written under {@link #swapLock}. */
    private volatile long lastSwapPauseNanos;

    /** The active engine's name, or {@code "none"}. */
    String engineName() {
        TimerEngine engine = active;
        return engine == null ? "none" : engine.name();
    }

    long dispatcherWakeups() {
        TimerEngine engine = active;
        return engine == null ? 0 : engine.dispatcherWakeups();
    }

    long swaps() {
        return swaps.get();
    }

    long lastSwapPauseNanos() {
        return lastSwapPauseNanos;
    }

    /** Arms {@code entry} in the active engine, or parks it while there is none. */
    void arm(TimerEntry entry) {
        for (; ; ) {
            TimerEngine engine = active;
            if (engine != null && engine.arm(entry)) {
                if (active == engine || !engine.disarm(entry)) {
                    return; // still active, or a swap's drain already took the entry and moves it
                }
                continue; // armed in an engine that was swapped out meanwhile: took it back, arm it again
            }
            synchronized (swapLock) { // waits for a swap in progress
                if (active == null) {
                    parkedEntries.add(entry);
                    return;
                }
                if (active == engine && !engine.arm(entry)) {
                    // Refused outside any swap: the engine has shut down. Keep the timer for the next engine.
                    LOG.error("Timer engine {} refused a timer while active; parking it", engine.name());
                    parkedEntries.add(entry);
                    return;
                }
                if (active == engine) {
                    return;
                }
            }
        }
    }

    /** Disarms {@code entry} wherever it is, as far as that is possible without waiting. */
    void disarm(TimerEntry entry) {
        TimerEngine engine = active;
        if (engine != null && engine.disarm(entry)) {
            return;
        }
        synchronized (swapLock) {
            parkedEntries.remove(entry);
        }
    }

    /** Runs {@code task} on the active engine's workers, or parks it while there is none. */
    void execute(Runnable task) {
        for (; ; ) {
            TimerEngine engine = active;
            if (engine != null) {
                try {
                    engine.execute(task);
                    return;
                } catch (RejectedExecutionException shutDown) {
                    // fall through: the engine is being swapped out
                }
            }
            synchronized (swapLock) {
                if (active == null || active == engine) {
                    parkedTasks.add(task);
                    return;
                }
            }
        }
    }

    /** Makes {@code next} (possibly {@code null}) the active engine and moves every pending arming to it. */
    void swapTo(TimerEngine next) {
        synchronized (swapLock) {
            TimerEngine previous = active;
            if (previous == next) {
                return;
            }
            long start = System.nanoTime();
            active = next;
            List<TimerEntry> moving = new ArrayList<>(parkedEntries);
            parkedEntries.clear();
            List<Runnable> tasks = new ArrayList<>(parkedTasks);
            parkedTasks.clear();
            if (previous != null) {
                moving.addAll(previous.drain());
            }
            int moved = 0;
            for (TimerEntry entry : moving) {
                if (!((Arming) entry).isLive()) {
                    continue;
                }
                if (next == null || !next.arm(entry)) {
                    parkedEntries.add(entry);
                } else if (!((Arming) entry).isLive()) {
                    next.disarm(entry); // cancelled while moving
                } else {
                    moved++;
                }
            }
            for (Runnable task : tasks) {
                if (next == null) {
                    parkedTasks.add(task);
                } else {
                    next.execute(task);
                }
            }
            long pause = System.nanoTime() - start;
            lastSwapPauseNanos = pause;
            swaps.incrementAndGet();
            LOG.info(
                    "Timer engine {} -> {}: moved {} pending timers in {} µs",
                    previous == null ? "none" : previous.name(),
                    next == null ? "none" : next.name(),
                    next == null ? 0 : moved,
                    pause / 1_000);
        }
    }
}
