package org.rouse.api.internal.timer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The counters of one bundle's view; updated from any thread without locks. */
final class TimerCounters {

    /** Armed timers; incremented when armed, decremented by whoever takes the arming (see TimerHandle). */
    private final AtomicLong pending = new AtomicLong();

    private final LongAdder fired = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder cancelled = new LongAdder();
    private final LongAdder clamped = new LongAdder();
    private final LongAdder slowHandlers = new LongAdder();
    private final LatenessHistogram lateness = new LatenessHistogram();

    void pendingAdded() {
        pending.incrementAndGet();
    }

    void pendingRemoved() {
        pending.decrementAndGet();
    }

    long pending() {
        return pending.get();
    }

    void fired() {
        fired.increment();
    }

    void failed() {
        failed.increment();
    }

    void cancelled() {
        cancelled.increment();
    }

    void clamped() {
        clamped.increment();
    }

    void slowHandler() {
        slowHandlers.increment();
    }

    /**
     * Zeroes every count but {@code pending} (a gauge) and empties the lateness histogram. Updates racing with the
     * reset may be kept or lost, as {@link LongAdder#reset()} documents.
     */
    void reset() {
        fired.reset();
        failed.reset();
        cancelled.reset();
        clamped.reset();
        slowHandlers.reset();
        lateness.reset();
    }

    LatenessHistogram lateness() {
        return lateness;
    }

    Statistics snapshot(String engine, long wakeups) {
        return new Statistics(
                pending.get(),
                fired.sum(),
                failed.sum(),
                cancelled.sum(),
                clamped.sum(),
                slowHandlers.sum(),
                lateness.snapshot(),
                engine,
                wakeups);
    }

    /** An immutable snapshot. */
    record Statistics(
            long pending,
            long fired,
            long failed,
            long cancelled,
            long clamped,
            long slowHandlers,
            org.rouse.stats.Percentiles lateness,
            String engine,
            long dispatcherWakeups)
            implements org.rouse.timer.TimerStatistics {}
}
