package org.rouse.api.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rouse.api.internal.HealthFinding;
import org.rouse.api.internal.HealthFinding.Level;
import org.rouse.stats.Percentiles;

/**
 * The recent-lateness window, derived from the views' cumulative histograms by the marks the checks take: a recent
 * burst is seen, lateness older than the window is not, and resets, new and released views are counted right.
 */
class LatenessWindowTest {

    private static final long S = TimeUnit.SECONDS.toNanos(1);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long T0 = 1_000 * S;

    @Test
    void aRecentBurstIsSeenAndLatenessOlderThanTheWindowIsNot() {
        LatenessWindow window = new LatenessWindow(60 * S, T0);
        LatenessHistogram view = new LatenessHistogram();
        record(view, 100, 500 * MS); // an old burst, just after the first mark
        Percentiles first = window.recent(T0 + 5 * S, List.of(view)).lateness();
        assertEquals(100, first.count());
        assertTrue(first.p99Nanos() >= 495 * MS, "3 significant digits: " + first.p99Nanos());
        for (long t = 10; t <= 80; t += 5) { // a check every 5 s, handlers on time meanwhile
            record(view, 10, 1 * MS);
            window.recent(T0 + t * S, List.of(view));
        }
        record(view, 20, 300 * MS); // a recent burst
        LatenessWindow.Recent recent = window.recent(T0 + 85 * S, List.of(view));
        assertTrue(recent.lateness().maxNanos() >= 299 * MS, "the recent burst is seen: " + recent);
        assertTrue(recent.lateness().maxNanos() < 400 * MS, "the 500 ms burst 84 s ago is not: " + recent);
        assertTrue(recent.lateness().p99Nanos() >= 299 * MS, recent.toString());
        assertTrue(
                recent.spanNanos() >= 50 * S && recent.spanNanos() <= 60 * S,
                "checks every 5 s cover 5/6 to 6/6 of the window: " + recent.spanNanos());
        // 20 burst samples and the on-time ones recorded after the base mark (10 before each later check)
        long expected = 20 + 10 * (recent.spanNanos() / (5 * S) - 1);
        assertEquals(expected, recent.lateness().count(), recent.toString());

        List<HealthFinding> findings =
                TimerHealth.DEFAULTS.evaluate("wheel", recent.lateness(), recent.spanNanos(), List.of());
        assertEquals(Level.CRITICAL, HealthFinding.worst(findings), findings.toString());
        assertTrue(
                findings.get(1).message().contains("over the last " + recent.spanNanos() / S + " s"),
                findings.toString());
    }

    @Test
    void aBurstLeavesTheWindowOnceTheChecksHaveMovedPastIt() {
        LatenessWindow window = new LatenessWindow(60 * S, T0);
        LatenessHistogram view = new LatenessHistogram();
        window.recent(T0 + 10 * S, List.of(view));
        record(view, 5, 800 * MS);
        assertEquals(5, window.recent(T0 + 20 * S, List.of(view)).lateness().count());
        assertEquals(5, window.recent(T0 + 65 * S, List.of(view)).lateness().count(), "the mark at 20 s still sees it");
        assertEquals(0, window.recent(T0 + 81 * S, List.of(view)).lateness().count(), "the mark at 65 s does not");
    }

    @Test
    void checksRarerThanTheWindowSeeSinceThePreviousCheckAndSaySo() {
        LatenessWindow window = new LatenessWindow(60 * S, T0);
        LatenessHistogram view = new LatenessHistogram();
        record(view, 3, 2 * MS);
        LatenessWindow.Recent first = window.recent(T0 + 300 * S, List.of(view));
        assertEquals(3, first.lateness().count(), "the first check sees since the window was created");
        assertEquals(300 * S, first.spanNanos());
        record(view, 4, 2 * MS);
        LatenessWindow.Recent second = window.recent(T0 + 500 * S, List.of(view));
        assertEquals(4, second.lateness().count(), "since the previous check only");
        assertEquals(200 * S, second.spanNanos());
        assertEquals(1, window.marks(), "a mark older than the window is dropped once a newer one exists");
    }

    @Test
    void resetNewAndReleasedViewsAreCountedFromWhatTheyHoldNow() {
        LatenessWindow window = new LatenessWindow(60 * S, T0);
        LatenessHistogram kept = new LatenessHistogram();
        LatenessHistogram reset = new LatenessHistogram();
        LatenessHistogram released = new LatenessHistogram();
        record(kept, 10, 1 * MS);
        record(reset, 10, 1 * MS);
        record(released, 10, 900 * MS);
        window.recent(T0 + 70 * S, List.of(kept, reset, released)); // the only mark in the window from now on
        record(kept, 2, 1 * MS);
        reset.reset();
        record(reset, 3, 5 * MS); // fewer than at the mark: all three count
        LatenessHistogram created = new LatenessHistogram();
        record(created, 4, 7 * MS); // not in the mark: all four count
        Percentiles recent =
                window.recent(T0 + 20 * S, List.of(kept, reset, created)).lateness();
        assertEquals(2 + 3 + 4, recent.count());
        assertTrue(recent.maxNanos() < 8 * MS, "the released view's 900 ms are gone with it: " + recent);
    }

    @Test
    void aResetFollowedByMoreSamplesThanAtTheMarkCountsEverySampleSinceTheReset() {
        LatenessWindow window = new LatenessWindow(60 * S, T0);
        LatenessHistogram view = new LatenessHistogram();
        record(view, 10, 1 * MS);
        window.recent(T0 + 70 * S, List.of(view)); // the mark: 10 samples at 1 ms
        view.reset();
        record(view, 12, 1 * MS); // more than at the mark, in the same bucket: a difference would say 2
        assertEquals(12, window.recent(T0 + 80 * S, List.of(view)).lateness().count());
    }

    @Test
    void marksAreBoundedAndAResizeKeepsThem() {
        LatenessWindow window = new LatenessWindow(60 * S, T0);
        LatenessHistogram view = new LatenessHistogram();
        for (long t = 1; t <= 600; t++) { // a check a second for ten minutes
            window.recent(T0 + t * S, List.of(view));
            assertTrue(window.marks() <= LatenessWindow.SLICES + 1, "marks at " + t + " s: " + window.marks());
        }
        record(view, 1, 1 * MS);
        window.resize(6 * S);
        assertEquals(6 * S, window.windowNanos());
        LatenessWindow.Recent recent = window.recent(T0 + 601 * S, List.of(view));
        assertEquals(1, recent.lateness().count());
        assertTrue(recent.spanNanos() <= 6 * S, "the oldest mark within the new window: " + recent.spanNanos());
    }

    @Test
    void theFrontCoreDerivesItFromEveryLiveViewsOwnStatistics() {
        TimerFrontCore core = new TimerFrontCore();
        BundleTimerView a = core.newView("a");
        BundleTimerView b = core.newView("b");
        long now = System.nanoTime();
        core.recentLateness(now);
        a.counters().lateness().record(250 * MS);
        b.counters().lateness().record(1 * MS);
        Percentiles recent = core.recentLateness(now + S).lateness();
        assertEquals(2, recent.count());
        assertTrue(recent.maxNanos() >= 249 * MS, recent.toString());
        core.release(b);
        assertEquals(1, core.recentLateness(now + 2 * S).lateness().count(), "b left with its samples");
    }

    private static void record(LatenessHistogram view, int n, long nanos) {
        for (int i = 0; i < n; i++) {
            view.record(nanos);
        }
    }
}
