package org.rouse.api.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rouse.stats.Percentiles;

/** The recent-lateness window: samples count while their slice is in the window and drop out after it. */
class LatenessWindowTest {

    private static final long S = TimeUnit.SECONDS.toNanos(1);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void samplesLeaveTheWindowAfterItPasses() {
        LatenessWindow window = new LatenessWindow(60 * S); // six 10 s slices
        long t0 = 1_000 * S;
        for (int i = 0; i < 99; i++) {
            window.record(1 * MS, t0);
        }
        window.record(500 * MS, t0 + 5 * S);
        Percentiles now = window.snapshot(t0 + 5 * S);
        assertEquals(100, now.count());
        assertTrue(now.maxNanos() >= 495 * MS, "2 significant digits: " + now.maxNanos());
        assertEquals(100, window.snapshot(t0 + 50 * S).count(), "still within the last six slices");
        assertEquals(0, window.snapshot(t0 + 70 * S).count(), "70 s later every slice has left the window");
    }

    @Test
    void aReusedSlotForgetsItsOldSlice() {
        LatenessWindow window = new LatenessWindow(60 * S);
        long t0 = 1_000 * S;
        window.record(300 * MS, t0);
        window.record(2 * MS, t0 + 70 * S); // the same slot, seven slices later
        Percentiles later = window.snapshot(t0 + 70 * S);
        assertEquals(1, later.count());
        assertTrue(later.maxNanos() < 3 * MS, "the old 300 ms sample is gone: " + later.maxNanos());
    }

    @Test
    void aSampleOlderThanItsSlotsSliceIsDropped() {
        LatenessWindow window = new LatenessWindow(60 * S);
        long t0 = 1_000 * S;
        window.record(2 * MS, t0 + 70 * S);
        window.record(300 * MS, t0); // a thread that read the clock a window ago
        assertEquals(1, window.snapshot(t0 + 70 * S).count());
    }

    @Test
    void resizingForgetsAndUsesTheNewWidth() {
        LatenessWindow window = new LatenessWindow(60 * S);
        long t0 = 1_000 * S;
        window.record(1 * MS, t0);
        window.resize(6 * S);
        assertEquals(6 * S, window.windowNanos());
        assertEquals(0, window.snapshot(t0).count());
        window.record(1 * MS, t0);
        assertEquals(1, window.snapshot(t0 + 5 * S).count());
        assertEquals(0, window.snapshot(t0 + 7 * S).count());
    }
}
