package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.rouse.api.internal.events.RouseEvents;
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
     * Layout. `active` is the engine new work goes to, never null: while no engine service exists it is `standby`, a
     * StandbyTimerEngine that swapTo(null) starts and moves every timer into like any other swap, so timers keep firing
     * on time across a provider update; the first real engine drains it and then stops it, which ends its threads.
     * `swapLock` serializes swaps and guards `parkedEntries` and `parkedTasks`, where armings and tasks wait only when
     * the active engine refuses them outside a swap (it shut down while still active); the next swap hands them on.
     *
     * Algorithm. The swap runs under `swapLock`: it publishes active = next first, then drains the engine it replaces
     * and arms what the drain returned in next. An `arm` racing with a swap either reached the old engine before the
     * drain (and is moved by it) or is refused by it; a refused caller then takes `swapLock`, which makes it wait for
     * the swap to finish, and retries on the new engine. A drained engine accepts entries again (so that the front can
     * fall back to it), so an arm that read `active` before a swap can land in the old engine after its drain. The
     * arming thread notices that `active` changed and takes the entry back with disarm. When disarm finds nothing,
     * three parties may have had the entry: the old engine's dispatcher (it expired), a later swap's drain (which moves
     * it), or the old engine's shutdown, which drops what it holds and tells no one. Each arming therefore carries
     * Arming.takenBySwap, set under `swapLock` by every swap whose drain returns it (and on the parked armings a swap
     * moves: the swap re-checks and may disarm every arming it moves, so none of them may be armed again as the same
     * object meanwhile). The arming thread, after a failed
     * disarm, takes `swapLock` (so any swap whose drain could have returned the entry has finished) and reads that flag
     * and the handle's armed reference: taken by a swap or no longer live means another party owns it; otherwise the
     * engine dropped it and the arming thread arms it again. An entry cancelled while it is between engines is
     * filtered out (Arming.isLive()), checked again after arming so that a cancel racing with the move leaves nothing
     * armed. An arming that may have reached two engines that way is marked Arming.shared, and an arming a drain
     * returned carries takenBySwap: a periodic timer never re-uses either for its next period. Tasks handed to an
     * engine are not moved by the swap itself: the front core's afterSwap hook re-issues the owners' queued runs on the
     * new engine (see SerialQueue).
     *
     * Invariants.
     * 1. `active` is never null.
     * 2. A live arming is, at every moment outside a swap, in an engine that will expire or return it, or parked here,
     *    or held by the one thread inside `arm` for it. Re-arming an entry that the old dispatcher is expiring at that
     *    very moment leaves it briefly known to two engines; the CAS on the handle's armed reference lets only one run
     *    it.
     * 3. Exactly-once firing does not depend on any of this: it is decided by the CAS on the handle's armed reference.
     *
     * Costs. An arm with no swap in progress is a volatile read and the engine's arm; `swapLock` is taken only when the
     * engine refuses or an arm lands in a swapped-out engine, i.e. during a swap.
     */

    private static final Logger LOG = LoggerFactory.getLogger(TimerDispatch.class);

    /** Serializes swaps, and parking against swaps. */
    private final Object swapLock = new Object();
    /** Runs timers while no engine service is present; started and stopped under {@link #swapLock}. */
    private final StandbyTimerEngine standby = new StandbyTimerEngine();
    /** The engine new work goes to, never null; written under {@link #swapLock}, read without it. */
    private volatile TimerEngine active = standby;
    /** Armings an active engine refused outside a swap; guarded by {@link #swapLock}, moved by the next swap. */
    private final Set<TimerEntry> parkedEntries = new LinkedHashSet<>();
    /** Tasks an active engine refused outside a swap; guarded by {@link #swapLock}, moved by the next swap. */
    private final List<Runnable> parkedTasks = new ArrayList<>();
    /** Swaps done; incremented under {@link #swapLock}, read without it. */
    private final AtomicLong swaps = new AtomicLong();
    /** The pause of the last swap; written under {@link #swapLock}. */
    private volatile long lastSwapPauseNanos;
    /** Run under {@link #swapLock} at the end of every swap to a non-null engine; set once by the front core. */
    private volatile Runnable afterSwap = () -> {};

    TimerDispatch() {
        standby.start(); // no thread until a timer is armed or a task runs
    }

    /** The active engine's name, or {@code "none"} while the standby stands in for a missing engine service. */
    String engineName() {
        TimerEngine engine = active;
        return engine == standby ? "none" : engine.name();
    }

    long dispatcherWakeups() {
        return active.dispatcherWakeups();
    }

    long swaps() {
        return swaps.get();
    }

    long lastSwapPauseNanos() {
        return lastSwapPauseNanos;
    }

    /** The engine used while no engine service is present (for tests). */
    StandbyTimerEngine standby() {
        return standby;
    }

    /**
     * Sets what runs at the end of every swap to an engine, after the swap count is incremented and under the swap
     * lock (the front core re-issues its owners' queued runs there).
     */
    void afterSwap(Runnable hook) {
        afterSwap = hook;
    }

    /** Arms {@code entry} in the active engine. */
    void arm(TimerEntry entry) {
        for (; ; ) {
            TimerEngine engine = active;
            if (engine.arm(entry)) {
                if (active == engine) {
                    return;
                }
                if (!engine.disarm(entry)) {
                    if (ownedElsewhere((Arming) entry)) {
                        return; // expired in the old engine, or a swap's drain took it and moves it
                    }
                    // the old engine shut down and dropped it, or is expiring it right now: it may reach two engines
                    ((Arming) entry).shared = true;
                }
                continue; // took it back from a swapped-out engine, or that engine dropped it
            }
            synchronized (swapLock) { // waits for a swap in progress
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

    /**
     * After {@code disarm} found {@code arming} no longer in an engine it was just armed in: whether a swap or an
     * expiry owns it (otherwise the engine dropped it when it shut down).
     */
    private boolean ownedElsewhere(Arming arming) {
        synchronized (swapLock) { // every swap whose drain could have returned the arming has finished
            return arming.takenBySwap || !arming.isLive();
        }
    }

    /**
     * Disarms {@code entry} wherever it is, as far as that is possible without waiting.
     *
     * @return whether it was removed from the active engine or the parked entries (so no engine holds it now, unless
     *     two may have known it: Arming.shared); false if it was elsewhere (expiring, or in a swapped-out engine)
     */
    boolean disarm(TimerEntry entry) {
        if (active.disarm(entry)) {
            return true;
        }
        synchronized (swapLock) {
            return parkedEntries.remove(entry);
        }
    }

    /** Runs {@code task} on the active engine's workers. */
    void execute(Runnable task) {
        for (; ; ) {
            TimerEngine engine = active;
            try {
                engine.execute(task);
                return;
            } catch (RejectedExecutionException shutDown) {
                // the engine is being swapped out, or has shut down
            }
            synchronized (swapLock) {
                if (active == engine) {
                    parkedTasks.add(task);
                    return;
                }
            }
        }
    }

    /**
     * Makes {@code next} the active engine and moves every pending arming to it; {@code null} means no engine
     * service, and the standby takes over.
     */
    void swapTo(TimerEngine next) {
        TimerEngine target = next == null ? standby : next;
        synchronized (swapLock) {
            TimerEngine previous = active;
            if (previous == target) {
                return;
            }
            long start = System.nanoTime();
            if (target == standby) {
                standby.start();
            }
            active = target;
            List<TimerEntry> moving = new ArrayList<>(parkedEntries);
            parkedEntries.clear();
            for (TimerEntry entry : moving) {
                // this swap moves it, as a drained one: a cancel that takes it back from the target while the
                // loop below has not yet re-checked it must not let the handle arm itself (the loop may disarm it)
                ((Arming) entry).takenBySwap = true;
            }
            List<Runnable> tasks = new ArrayList<>(parkedTasks);
            parkedTasks.clear();
            for (TimerEntry entry : previous.drain()) {
                ((Arming) entry).takenBySwap = true;
                moving.add(entry);
            }
            if (previous == standby) {
                standby.stop(); // drained: its threads end; tasks it already queued still run
            }
            int moved = 0;
            for (TimerEntry entry : moving) {
                if (!((Arming) entry).isLive()) {
                    continue;
                }
                if (!target.arm(entry)) {
                    parkedEntries.add(entry);
                } else if (!((Arming) entry).isLive()) {
                    target.disarm(entry); // cancelled while moving
                } else {
                    moved++;
                }
            }
            for (Runnable task : tasks) {
                execute(task);
            }
            swaps.incrementAndGet(); // before afterSwap: SerialQueue relies on this order
            if (next != null) {
                afterSwap.run();
            }
            long pause = System.nanoTime() - start;
            lastSwapPauseNanos = pause;
            RouseEvents.engineSwap(
                    "timer",
                    previous == standby ? null : previous.name(),
                    target == standby ? null : target.name(),
                    pause,
                    moved);
            LOG.info(
                    "Timer engine {} -> {}: moved {} pending timers in {} µs",
                    previous == standby ? "none (standby)" : previous.name(),
                    target == standby ? "none (standby)" : target.name(),
                    moved,
                    pause / 1_000);
        }
    }
}
