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

            String report = new TimerCommands(core).report();
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

    @Test
    void lateAndRunningNameTheOwnersAndAResetForgetsTheLateness() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        WheelTimerEngine engine = WheelTimerEngine.started(2);
        core.swapTo(engine);
        BundleTimerView view = core.newView("org.example.host");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            CountDownLatch fired = new CountDownLatch(5);
            for (int i = 0; i < 5; i++) {
                view.owner("quick").schedule(Duration.ZERO, e -> fired.countDown());
            }
            assertTrue(fired.await(10, TimeUnit.SECONDS));
            view.owner("stuck").schedule(Duration.ZERO, e -> {
                started.countDown();
                release.await();
            });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            TimerCommands commands = new TimerCommands(core);

            // the quick handlers counted their latch down before their worker marked them finished
            Awaitility.await().until(() -> !commands.runningReport(10).contains("quick"));
            String running = commands.runningReport(10);
            String[] runningLines = running.split("\\R");
            assertEquals(2, runningLines.length, running);
            assertTrue(runningLines[1].matches("org\\.example\\.host\\s+stuck\\s+#6 one-shot\\s+[0-9.]+"), running);

            Awaitility.await().until(() -> commands.lateReport(10).contains("quick"));
            String late = commands.lateReport(10);
            assertTrue(late.matches("(?s).*org\\.example\\.host\\s+quick\\s+5\\s.*"), late);
            assertTrue(late.contains("stuck"), late);
            assertEquals(2, commands.lateReport(1).split("\\R").length, "header and one owner");

            commands.timers("reset");
            assertEquals(1, commands.lateReport(10).split("\\R").length, "no owner has runs after a reset");
            assertEquals(0, view.statistics().fired());
            assertEquals(0, view.statistics().lateness().count());
            assertTrue(commands.runningReport(10).contains("stuck"), "a reset does not hide a running handler");

            release.countDown();
            Awaitility.await().until(() -> commands.runningReport(10).split("\\R").length == 1);
            IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> commands.late("x"));
            assertTrue(
                    bad.getMessage().contains("'x'") && bad.getMessage().contains("rouse:late [n]"), bad.getMessage());
        } finally {
            release.countDown();
            core.release(view);
            core.swapTo(null);
            engine.shutdown();
        }
    }
}
