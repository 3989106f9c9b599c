package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerCommands;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.stats.Percentiles;

/** Lateness percentiles (HdrHistogram) and the {@code rouse:timers} report, on the real engine. */
@Timeout(30)
class TimerCommandsTest {

    @Test
    void theReportNamesEachBundleWithItsCountsAndLateness() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        WheelTimerEngine engine = WheelTimerEngine.started(2);
        core.swapTo(engine);
        BundleTimerView scripts = core.newView("org.example.scripts");
        BundleTimerView idle = core.newView("org.example.idle");
        try {
            CountDownLatch fired = new CountDownLatch(200);
            for (int i = 0; i < 200; i++) {
                scripts.owner("s" + (i % 10)).schedule(Duration.ofMillis(i % 20), e -> fired.countDown());
            }
            idle.owner("later").schedule(Duration.ofHours(1), e -> {});
            assertTrue(fired.await(10, TimeUnit.SECONDS));
            Awaitility.await().until(() -> scripts.statistics().fired() == 200);

            Percentiles lateness = scripts.statistics().lateness();
            assertEquals(200, lateness.count());
            assertTrue(lateness.p50Nanos() <= lateness.p99Nanos() && lateness.p99Nanos() <= lateness.maxNanos());
            assertTrue(lateness.maxNanos() > 0);

            String report = new TimerCommands(core).timers();
            assertTrue(report.startsWith("engine wheel, dispatcher wakeups "), report);
            String[] lines = report.split("\\R");
            assertEquals(4, lines.length, report);
            assertTrue(lines[2].startsWith("org.example.idle"), report); // sorted by bundle
            assertTrue(lines[2].matches("org\\.example\\.idle\\s+1\\s+0\\s+0\\s+0\\s+0\\s+0\\s+.*"), lines[2]);
            assertTrue(
                    lines[3].matches("org\\.example\\.scripts\\s+0\\s+200\\s+0\\s+0\\s+0\\s+0\\s+[0-9./]+"), lines[3]);
        } finally {
            core.release(scripts);
            core.release(idle);
            core.swapTo(null);
            engine.shutdown();
        }
    }
}
