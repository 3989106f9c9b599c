package org.rouse.benchmarks.measure;

import java.lang.management.ManagementFactory;

/**
 * CPU time consumed by the whole JVM process (every thread, including JIT and GC), from
 * {@link com.sun.management.OperatingSystemMXBean#getProcessCpuTime()}. Use it for "what did this cost the machine"
 * questions such as idle CPU; use {@link ThreadCpu} to attribute cost to a benchmark's own threads.
 *
 * <pre>{@code
 * long before = ProcessCpu.nanos();
 * runWorkload();
 * double cpuSeconds = (ProcessCpu.nanos() - before) / 1e9;
 * }</pre>
 */
public final class ProcessCpu {

    private ProcessCpu() {}

    /** Process CPU time in nanoseconds since the JVM started, or 0 when the platform does not report it. */
    public static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }
}
