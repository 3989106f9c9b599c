package org.rouse.api.internal.timer;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.rouse.config.ConfigCheck;
import org.rouse.timer.spi.TimerEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timer front without OSGi: the engine dispatch, the policy in force and the live bundle views. The DS component
 * {@link TimerFront} wraps it; tests use it directly.
 */
public final class TimerFrontCore {

    private static final Logger LOG = LoggerFactory.getLogger(TimerFrontCore.class);

    private final TimerDispatch dispatch = new TimerDispatch();
    /** The last good configuration; replaced whole by {@link #configure}. */
    private volatile TimerPolicy policy = TimerPolicy.DEFAULTS;

    private final Set<BundleTimerView> views = ConcurrentHashMap.newKeySet();

    /**
     * The health check's marks of every view's lateness (its window: a minute until the check configures it); touched
     * only by {@link #recentLateness(long)} under the window's own monitor, never by a handler start.
     */
    private final LatenessWindow recentLateness = new LatenessWindow(TimeUnit.SECONDS.toNanos(60), System.nanoTime());

    public TimerFrontCore() {
        dispatch.afterSwap(this::reissueQueuedRuns);
    }

    /** Makes {@code engine} (possibly null) the active engine, moving every pending timer to it. */
    public void swapTo(TimerEngine engine) {
        dispatch.swapTo(engine);
    }

    /**
     * Hands every owner's waiting run to the newly active engine, so that none depends on the retired engine running
     * its worker queue (see {@link SerialQueue}). O(owners); called by the dispatch under its swap lock.
     */
    private void reissueQueuedRuns() {
        for (BundleTimerView view : views) {
            view.forEachOwner(owner -> owner.queue().reissue());
        }
    }

    /** Applies a configuration, or rejects it whole and keeps the last good one; returns whether it was applied. */
    boolean configure(TimerFrontConfig config) {
        ConfigCheck check = new ConfigCheck(TimerFront.PID);
        TimerPolicy next = TimerPolicy.from(config, check);
        if (next == null) {
            LOG.error(check.rejection());
            return false;
        }
        policy = next;
        return true;
    }

    TimerPolicy policy() {
        return policy;
    }

    TimerDispatch dispatch() {
        return dispatch;
    }

    /** A new view for a consumer named {@code consumer} (a bundle's symbolic name, in logs). */
    public BundleTimerView newView(String consumer) {
        BundleTimerView view = new BundleTimerView(this, consumer);
        views.add(view);
        return view;
    }

    /** Releases {@code view}: cancels all its timers. */
    public void release(BundleTimerView view) {
        views.remove(view);
        view.release();
    }

    /** Releases every view. */
    void releaseAll() {
        for (BundleTimerView view : views) {
            release(view);
        }
    }

    /** The live bundle views, for the Gogo command. */
    java.util.Collection<BundleTimerView> views() {
        return java.util.Collections.unmodifiableSet(views);
    }

    /** Every live owner of every view, with its lateness and the handler it runs now (for the shell and JMX). */
    java.util.List<Owner.OwnerSnapshot> owners() {
        java.util.List<Owner.OwnerSnapshot> all = new java.util.ArrayList<>();
        for (BundleTimerView view : views) {
            view.forEachOwner(owner -> all.add(owner.snapshot()));
        }
        return all;
    }

    /**
     * Zeroes the statistics the front keeps: every view's counts (not its pending timers) and lateness, every
     * owner's lateness. Engine figures (dispatcher wake-ups) and the swap count are not reset.
     */
    void resetStatistics() {
        for (BundleTimerView view : views) {
            view.counters().reset();
            view.forEachOwner(Owner::resetStatistics);
        }
    }

    /** The health check's recent-lateness window (its length and marks). */
    LatenessWindow recentLateness() {
        return recentLateness;
    }

    /**
     * The lateness of every live view's handler starts over the recent window ending at {@code nowNanos}, from the
     * views' own cumulative histograms (see {@link LatenessWindow}); for the health check.
     */
    LatenessWindow.Recent recentLateness(long nowNanos) {
        java.util.List<LatenessHistogram> histograms = new java.util.ArrayList<>(views.size());
        for (BundleTimerView view : views) {
            histograms.add(view.counters().lateness());
        }
        return recentLateness.recent(nowNanos, histograms);
    }

    /** Timer swaps done so far, and how long the last one paused scheduling. */
    public long swaps() {
        return dispatch.swaps();
    }

    public long lastSwapPauseNanos() {
        return dispatch.lastSwapPauseNanos();
    }
}
