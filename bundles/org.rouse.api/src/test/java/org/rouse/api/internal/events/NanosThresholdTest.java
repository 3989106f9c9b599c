package org.rouse.api.internal.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The threshold setting parses JFR's duration syntax, keeps the lowest of several recordings' values. */
class NanosThresholdTest {

    @Test
    void parsesJfrDurations() {
        assertEquals(0L, NanosThreshold.parse("0 ns"));
        assertEquals(500_000L, NanosThreshold.parse("500 us"));
        assertEquals(20_000_000L, NanosThreshold.parse("20 ms"));
        assertEquals(20_000_000L, NanosThreshold.parse("20ms"));
        assertEquals(2_000_000_000L, NanosThreshold.parse("2 s"));
        assertThrows(IllegalArgumentException.class, () -> NanosThreshold.parse("fast"));
        assertThrows(IllegalArgumentException.class, () -> NanosThreshold.parse("5 parsecs"));
    }

    @Test
    void lowestValueWinsAndBadValuesAreIgnored() {
        NanosThreshold t = new NanosThreshold();
        assertEquals(NanosThreshold.DEFAULT, t.getValue());
        assertEquals("1 ms", t.combine(Set.of("20 ms", "1 ms", "3 s")));
        assertEquals(NanosThreshold.DEFAULT, t.combine(Set.of()));
        t.setValue("5 ms");
        assertTrue(t.accept(5_000_000L));
        assertFalse(t.accept(4_999_999L));
        t.setValue("nonsense");
        assertEquals("5 ms", t.getValue(), "an unreadable value leaves the last good one");
    }
}
