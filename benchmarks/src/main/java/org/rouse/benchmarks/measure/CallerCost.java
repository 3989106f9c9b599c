package org.rouse.benchmarks.measure;

/**
 * Accumulates what the driving thread spends inside the calls that start an operation (the {@code wakeup()}, the
 * {@code execute(task)}, the {@code Thread.start()}), leaving out everything else the driver does between operations
 * (pacing, waiting, bookkeeping).
 *
 * <p>Single-threaded: only the driving thread calls {@link #begin()} and {@link #end()}, strictly alternating.
 *
 * <pre>{@code
 * CallerCost caller = new CallerCost();
 * caller.begin();
 * selector.wakeup();
 * caller.end();
 * ...
 * round.addThreadUsage(caller.total());
 * }</pre>
 */
public final class CallerCost {

    private ThreadUsage total = ThreadUsage.ZERO;
    private ThreadUsage started;

    /** Marks the start of a measured call. */
    public void begin() {
        if (started != null) {
            throw new IllegalStateException("begin() called twice without end()");
        }
        started = ThreadUsage.begin();
    }

    /** Marks the end of the measured call started by the last {@link #begin()}. */
    public void end() {
        if (started == null) {
            throw new IllegalStateException("end() called without begin()");
        }
        total = total.plus(ThreadUsage.end().minus(started));
        started = null;
    }

    /** The sum over every measured call so far. */
    public ThreadUsage total() {
        return total;
    }
}
