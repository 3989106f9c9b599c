package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpinDetectorTest {

    @Test
    void asksForARebuildAfterThresholdPrematureSelectsInARow() {
        SpinDetector detector = new SpinDetector(4);
        for (int round = 0; round < 2; round++) {
            assertFalse(detector.spun(0, false, 1_000, 0));
            assertFalse(detector.spun(0, false, 1_000, 0));
            assertFalse(detector.spun(0, false, 1_000, 0));
            assertTrue(detector.spun(0, false, 1_000, 0), "the 4th premature select in a row, round " + round);
        }
    }

    @Test
    void anythingButAPrematureSelectResetsTheCount() {
        SpinDetector detector = new SpinDetector(3);
        detector.spun(0, false, 1_000, 0);
        detector.spun(0, false, 1_000, 0);
        assertFalse(detector.spun(1, false, 1_000, 0), "a key was selected");
        detector.spun(0, false, 1_000, 0);
        detector.spun(0, false, 1_000, 0);
        assertFalse(detector.spun(0, true, 1_000, 0), "the loop was woken");
        detector.spun(0, false, 1_000, 0);
        detector.spun(0, false, 1_000, 0);
        assertFalse(detector.spun(0, false, 5_000_000, 5), "the 5 ms timeout elapsed");
        assertFalse(detector.spun(0, false, 1_000, 5));
        assertFalse(detector.spun(0, false, 1_000, 5));
        assertTrue(detector.spun(0, false, 1_000, 5), "returned before its timeout: premature");
    }

    @Test
    void rejectsANonPositiveThreshold() {
        assertThrows(IllegalArgumentException.class, () -> new SpinDetector(0));
    }
}
