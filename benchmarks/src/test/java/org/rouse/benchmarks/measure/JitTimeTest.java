package org.rouse.benchmarks.measure;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The JIT's compilation time, read around a window in which code gets hot (HotSpot reports it). */
class JitTimeTest {

    private static volatile long sink;

    @Test
    @Timeout(60)
    void compilingHotCodeIsCounted() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        assumeTrue(
                jit != null && jit.isCompilationTimeMonitoringSupported(), "this JVM does not report compilation time");
        long before = JitTime.millis();

        // a loop of a method this test alone calls: the JIT compiles it (and much else) while it runs
        await().atMost(Duration.ofSeconds(50)).until(() -> {
            for (int i = 0; i < 200_000; i++) {
                sink += mix(i);
            }
            return JitTime.millis() > before;
        });

        assertTrue(JitTime.millis() > before, "compilation time grew");
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        return x ^ (x >>> 29);
    }
}
