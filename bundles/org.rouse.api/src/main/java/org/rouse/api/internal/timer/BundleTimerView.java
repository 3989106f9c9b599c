package org.rouse.api.internal.timer;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.rouse.api.internal.Arguments;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;
import org.rouse.timer.TimerStatistics;

/** One consuming bundle's {@link TimerService}: its owners, counters and cap. */
public final class BundleTimerView implements TimerService {

    private final TimerFrontCore core;
    private final String consumer;
    private final ConcurrentMap<String, Owner> owners = new ConcurrentHashMap<>();
    private final TimerCounters counters = new TimerCounters();
    private final AtomicLong timerIds = new AtomicLong();
    /** Set once by release; read by every owner lookup. */
    private volatile boolean released;

    BundleTimerView(TimerFrontCore core, String consumer) {
        this.core = core;
        this.consumer = consumer;
    }

    @Override
    public TimerOwner owner(String name) {
        Arguments.name(name, "name");
        checkNotReleased();
        Owner owner = owners.compute(
                name, (key, existing) -> existing == null || existing.isClosed() ? new Owner(this, key) : existing);
        if (released) { // raced with release: do not leave an owner behind
            owner.close();
            checkNotReleased();
        }
        return owner;
    }

    @Override
    public Duration minimumInterval() {
        return Duration.ofNanos(core.policy().minimumIntervalNanos());
    }

    @Override
    public TimerStatistics statistics() {
        TimerDispatch dispatch = core.dispatch();
        return counters.snapshot(dispatch.engineName(), dispatch.dispatcherWakeups());
    }

    /** The consuming bundle's symbolic name. */
    String consumer() {
        return consumer;
    }

    TimerDispatch dispatch() {
        return core.dispatch();
    }

    TimerPolicy policy() {
        return core.policy();
    }

    TimerCounters counters() {
        return counters;
    }

    /** The next timer number; wraps after 2^32 timers (it only names timers in logs and the shell). */
    int nextTimerId() {
        return (int) timerIds.incrementAndGet();
    }

    long clampPeriod(long periodNanos) {
        long clamped = core.policy().clamp(periodNanos);
        if (clamped != periodNanos) {
            counters.clamped();
        }
        return clamped;
    }

    /**
     * Throws if this bundle already has its cap of pending timers. Checked when scheduling, so concurrent schedules
     * may overshoot the cap by at most the number of scheduling threads.
     */
    void checkCapacity() {
        int cap = core.policy().maxPendingPerBundle();
        if (counters.pending() >= cap) {
            throw new RejectedExecutionException("bundle " + consumer + " already has " + counters.pending()
                    + " pending timers, the cap set by max.pending.per.bundle is " + cap);
        }
    }

    void forEachOwner(java.util.function.Consumer<Owner> action) {
        owners.values().forEach(action);
    }

    void forget(Owner owner) {
        owners.remove(owner.name(), owner);
    }

    private void checkNotReleased() {
        if (released) {
            throw new IllegalStateException("the timer service view of " + consumer + " has been released");
        }
    }

    void release() {
        released = true;
        for (Owner owner : owners.values()) {
            owner.close();
        }
    }

    @Override
    public String toString() {
        return "TimerService[" + consumer + "]";
    }
}
