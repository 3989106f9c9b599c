package org.rouse.benchmarks.measure;

/**
 * What a thread consumed: CPU time and context switches. Take a reading with {@link #begin()} where the measured work
 * starts and {@link #end()} where it ends, on the same thread, and keep {@code end.minus(begin)}.
 *
 * <p>{@code begin()} reads the context switches before the CPU clock and {@code end()} reads the CPU clock before the
 * context switches, so the cost of reading {@code /proc} itself stays outside the CPU figure.
 *
 * <pre>{@code
 * ThreadUsage start = ThreadUsage.begin();
 * runOperations();
 * round.addThreadUsage(ThreadUsage.end().minus(start));
 * }</pre>
 *
 * @param cpuNanos CPU time in nanoseconds
 * @param switches context switches
 */
public record ThreadUsage(long cpuNanos, ContextSwitches switches) {

    /** Nothing consumed. */
    public static final ThreadUsage ZERO = new ThreadUsage(0, ContextSwitches.ZERO);

    /** A reading of the calling thread where measured work starts. */
    public static ThreadUsage begin() {
        ContextSwitches switches = ContextSwitches.ofCurrentThread();
        return new ThreadUsage(ThreadCpu.currentThreadNanos(), switches);
    }

    /** A reading of the calling thread where measured work ends (or, for a thread that only exists for the work, its
     * whole life so far). */
    public static ThreadUsage end() {
        long cpu = ThreadCpu.currentThreadNanos();
        return new ThreadUsage(cpu, ContextSwitches.ofCurrentThread());
    }

    /** This reading minus an earlier one of the same thread. */
    public ThreadUsage minus(ThreadUsage earlier) {
        return new ThreadUsage(cpuNanos - earlier.cpuNanos, switches.minus(earlier.switches));
    }

    /** The sum of two deltas (of the same or different threads). */
    public ThreadUsage plus(ThreadUsage other) {
        return new ThreadUsage(cpuNanos + other.cpuNanos, switches.plus(other.switches));
    }
}
