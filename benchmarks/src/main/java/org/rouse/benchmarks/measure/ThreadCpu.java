package org.rouse.benchmarks.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time (user + system) consumed by the calling thread, from {@link ThreadMXBean#getCurrentThreadCpuTime()}.
 *
 * <pre>{@code
 * long before = ThreadCpu.currentThreadNanos();
 * selector.wakeup();
 * long cost = ThreadCpu.currentThreadNanos() - before;
 * }</pre>
 */
public final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static {
        if (THREADS.isCurrentThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
    }

    private ThreadCpu() {}

    /** Whether this JVM measures per-thread CPU time; when not, {@link #currentThreadNanos()} returns 0. */
    public static boolean supported() {
        return THREADS.isCurrentThreadCpuTimeSupported();
    }

    /** CPU time consumed by the calling thread since it started, in nanoseconds (0 when unsupported). */
    public static long currentThreadNanos() {
        return supported() ? Math.max(0, THREADS.getCurrentThreadCpuTime()) : 0;
    }
}
