package org.rouse.benchmarks.measure;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Time the JVM's JIT compilers have spent compiling since it started, from {@link
 * CompilationMXBean#getTotalCompilationTime()}: the elapsed time of each compilation, summed over the compiler
 * threads, so at most about their CPU time while they are not preempted. Process CPU ({@link ProcessCpu}) includes
 * it; read both around a round to see how much of a round's CPU was compilation rather than the workload (code still
 * warming up, or compiled again after a deoptimization).
 *
 * <pre>{@code
 * long before = JitTime.millis();
 * runRound();
 * long compiling = JitTime.millis() - before; // negative: not reported by this JVM
 * }</pre>
 */
public final class JitTime {

    private JitTime() {}

    /** Milliseconds of compilation since the JVM started, or -1 when the JVM does not report it. */
    public static long millis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return -1;
        }
        return jit.getTotalCompilationTime();
    }
}
