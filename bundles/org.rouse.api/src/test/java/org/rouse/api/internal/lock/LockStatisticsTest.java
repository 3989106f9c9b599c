package org.rouse.api.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.LockService;
import org.rouse.lock.LockStatistics;
import org.rouse.lock.SwappableLock;

/** Wait and hold statistics of facades, view totals and the {@code rouse:locks} command (fallback primitive). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LockStatisticsTest {

    private final LockFrontCore core = new LockFrontCore();
    private final LockService view = core.newView("stats.bundle");

    @Test
    void anUncontendedLockRecordsNoTimes() {
        SwappableLock lock = view.lock("quiet");
        for (int i = 0; i < 100; i++) {
            lock.lock();
            lock.unlock();
        }
        LockStatistics s = lock.statistics();
        assertEquals(100, s.acquisitions());
        assertEquals(0, s.contendedAcquisitions());
        assertEquals(0, s.waitNanos().count());
        assertEquals(0, s.holdNanos().count(), "hold times are sampled only on contended locks");
    }

    @Test
    void aContendedAcquisitionRecordsItsWaitAndThenHoldsAreSampled() throws Exception {
        SwappableLock hot = view.lock("hot");
        view.lock("cold").lock();
        contendOnce(hot);
        LockStatistics s = hot.statistics();
        assertEquals(1, s.contendedAcquisitions());
        assertEquals(1, s.waitNanos().count());
        assertTrue(s.waitNanos().maxNanos() > 0);
        assertTrue(s.longestWaitNanos() >= s.waitNanos().p50Nanos() / 2, "the histogram and the maximum agree");

        int more = 4 * LockFacade.HOLD_SAMPLE_EVERY;
        for (int i = 0; i < more; i++) {
            hot.lock();
            hot.unlock();
        }
        long sampled = hot.statistics().holdNanos().count();
        assertTrue(sampled >= 3 && sampled <= 5, "one hold in " + LockFacade.HOLD_SAMPLE_EVERY + ": " + sampled);

        LockStatistics total = view.statistics();
        assertEquals(2 + more + 1, total.acquisitions());
        assertEquals(1, total.waitNanos().count(), "view totals merge the histograms");
    }

    @Test
    void aContendedLockTimesAtMostOneHoldIn256AcquisitionsSoTheHoldRarelyReadsTheClock() throws Exception {
        SwappableLock hot = view.lock("rarely-timed");
        contendOnce(hot); // histograms exist from now on, and hold times are sampled
        LockStatistics start = hot.statistics();
        long before = start.holdNanos().count();
        for (int i = 0; i < 255; i++) {
            hot.lock();
            hot.unlock();
        }
        LockStatistics s = hot.statistics();
        assertEquals(start.acquisitions() + 255, s.acquisitions(), "counts stay exact");
        long timed = s.holdNanos().count() - before;
        assertTrue(timed <= 1, "holds timed in 255 consecutive acquisitions: " + timed);
    }

    @Test
    void waitsAreSampledOneContendedAcquisitionInEightWhileCountsStayExact() throws Exception {
        SwappableLock hot = view.lock("sampled");
        int contended = LockFacade.WAIT_SAMPLE_EVERY + 1;
        for (int i = 0; i < contended; i++) {
            contendOnce(hot);
        }
        LockStatistics s = hot.statistics();
        assertEquals(contended, s.contendedAcquisitions(), "exact");
        assertEquals(2 * contended, s.acquisitions(), "exact");
        assertEquals(2, s.waitNanos().count(), "the first and the ninth contended acquisition are timed");
        assertTrue(s.longestWaitNanos() > 0);
    }

    @Test
    void theLocksCommandListsTheMostContendedFirst() throws Exception {
        SwappableLock quiet = view.lock("quiet-one");
        quiet.lock();
        quiet.unlock();
        SwappableLock hot = view.lock("hot-one");
        contendOnce(hot);
        contendOnce(hot);

        LockCommands commands = new LockCommands(core);
        String[] lines = commands.report(1).split("\\R");
        assertTrue(lines[0].startsWith("engine none"), lines[0]);
        assertTrue(lines[0].contains("2 contended"), lines[0]);
        assertEquals(3, lines.length, "header, column titles, one lock: " + Arrays.toString(lines));
        assertTrue(lines[2].startsWith("hot-one"), lines[2]);
        assertTrue(commands.report(10).contains("quiet-one"));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> commands.locks("-1"));
        assertTrue(
                negative.getMessage().contains("'-1'") && negative.getMessage().contains("usage: rouse:locks"),
                negative.getMessage());
        IllegalArgumentException word = assertThrows(IllegalArgumentException.class, () -> commands.locks("top"));
        assertTrue(word.getMessage().contains("'top'"), word.getMessage());
    }

    @Test
    void aResetCountsTheMonitoringViewAfreshAndLeavesTheLocksOwnStatistics() throws Exception {
        SwappableLock hot = view.lock("reset-one");
        contendOnce(hot);
        contendOnce(hot);
        LockCommands commands = new LockCommands(core);
        assertTrue(commands.report(10).contains("2 contended"), commands.report(10));

        commands.locks("reset");
        String afterReset = commands.report(10);
        assertTrue(afterReset.contains("0 acquisitions, 0 contended"), afterReset);

        contendOnce(hot);
        String later = commands.report(10);
        assertTrue(later.contains("2 acquisitions, 1 contended"), later);
        assertEquals(3, hot.statistics().contendedAcquisitions(), "the lock's own statistics are not reset");
    }

    @Test
    void aStrategyChangeNamesTheBadValueAndTheAllowedOnes() {
        LockCommands commands = new LockCommands(core);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> commands.strategy("f@ir"));
        assertTrue(bad.getMessage().contains("'f@ir'"), bad.getMessage());
    }

    /** Makes exactly one contended acquisition of {@code lock}: another thread waits until this one unlocks. */
    private static void contendOnce(SwappableLock lock) throws Exception {
        lock.lock();
        Thread waiter = new Thread(
                () -> {
                    lock.lock();
                    lock.unlock();
                },
                "stats-waiter");
        waiter.setDaemon(true);
        waiter.start();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> waiter.getState() == Thread.State.WAITING);
        lock.unlock();
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertTrue(!waiter.isAlive());
    }
}
