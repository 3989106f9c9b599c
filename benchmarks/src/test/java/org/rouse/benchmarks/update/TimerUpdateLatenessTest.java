package org.rouse.benchmarks.update;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rouse.benchmarks.update.TimerUpdateLateness.Row;
import org.rouse.benchmarks.update.TimerUpdateLateness.Run;
import org.rouse.benchmarks.update.TimerUpdateLateness.Update;
import org.rouse.benchmarks.update.TimerUpdateLateness.Window;

/** Which one-second windows count as an update's, the next and the quiet ones, from known times. */
class TimerUpdateLatenessTest {

    /** Windows closing at 1 s, 2 s, ... 20 s; window i's p99 is 100 + i ms. */
    private static List<Window> windows() {
        List<Window> windows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            windows.add(new Window((i + 1) * 1000L, 0.05, 0.1, 100 + i, 14220));
        }
        return windows;
    }

    @Test
    void theUpdatesSecondIsTheWindowOverlappingTheCommandAndNextIsTheOneAfter() {
        // update 1 inside window 12 (12 s, 13 s]; update 2 from 15.95 s to 16.1 s spans windows 15 and 16
        Run run = new Run("test", List.of(new Update(12_500, 12_600), new Update(15_950, 16_100)), windows());

        TimerUpdateLateness.Analysis analysis = TimerUpdateLateness.analyse(run);

        Row first = analysis.rows().get(0);
        assertEquals(112, first.updateP99());
        assertEquals(113, first.nextP99());
        assertEquals(List.of(110.0, 111.0), first.quietP99s(), "warm-up windows 0-9 are not quiet ones");
        Row second = analysis.rows().get(1);
        assertEquals(116, second.updateP99(), "the larger of the two windows the command overlapped");
        assertEquals(117, second.nextP99());
        assertEquals(List.of(114.0), second.quietP99s());
        assertArrayEquals(
                new String[] {"quiet", "quiet", "update", "next", "quiet", "update", "update", "next", "after"},
                List.of(analysis.roles()).subList(10, 19).toArray());
    }
}
