package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-thread kernel timer slack on Linux x86-64, where the build compiles the native helper: it loads, sets and
 * reads back the calling thread's slack, and the wheel engine's workers each apply {@code kernel.slack.micros} to
 * themselves, again after a reconfiguration.
 */
@Timeout(30)
class KernelTimerSlackTest {

    private static boolean linuxX86_64() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        return os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
    }

    @Test
    void theHelperSetsAndReadsTheCallingThreadsSlack() throws Exception {
        assumeTrue(linuxX86_64(), "the helper is built for Linux x86-64 only");
        assertTrue(KernelTimerSlack.available(), "not loaded: " + KernelTimerSlack.unavailableReason());
        // on a thread of its own: the slack belongs to the thread, and the test must not change the runner's
        CompletableFuture<long[]> seen = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            long before = KernelTimerSlack.ofCurrentThread();
            boolean set = KernelTimerSlack.setForCurrentThread(7_000);
            long after = KernelTimerSlack.ofCurrentThread();
            boolean reset = KernelTimerSlack.setForCurrentThread(0);
            long restored = KernelTimerSlack.ofCurrentThread();
            seen.complete(new long[] {before, set ? 1 : 0, after, reset ? 1 : 0, restored});
        });
        thread.start();
        long[] values = seen.get(10, TimeUnit.SECONDS);
        assertTrue(values[0] > 0, "no slack read back: " + values[0]);
        assertEquals(1, values[1], "prctl refused 7 µs");
        assertEquals(7_000, values[2]);
        assertEquals(1, values[3], "prctl refused the reset");
        assertEquals(values[0], values[4], "0 did not restore the thread's default");
    }

    @Test
    void eachWorkerAppliesKernelSlackMicrosToItselfAndAgainAfterAReconfiguration() throws Exception {
        assumeTrue(linuxX86_64() && KernelTimerSlack.available());
        WheelTimerEngine engine = WheelTimerEngine.started(2, 0, 1000, 0, 1000, 7);
        try {
            assertEquals(7_000, slackSeenByAWorker(engine));
            engine.modified(WheelTimerEngineTest.config(2, 0, 1000, 0, 13));
            assertEquals(13_000, slackSeenByAWorker(engine));
        } finally {
            engine.shutdown();
        }
    }

    private static long slackSeenByAWorker(WheelTimerEngine engine) throws Exception {
        CompletableFuture<Long> seen = new CompletableFuture<>();
        engine.execute(() -> seen.complete(KernelTimerSlack.ofCurrentThread()));
        return seen.get(10, TimeUnit.SECONDS);
    }
}
