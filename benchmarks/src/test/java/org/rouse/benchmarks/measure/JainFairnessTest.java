package org.rouse.benchmarks.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JainFairnessTest {

    @Test
    void equalSharesAreFair() {
        assertEquals(1.0, JainFairness.index(7, 7, 7, 7), 1e-12);
    }

    @Test
    void oneThreadTakingEverythingScoresOneOverN() {
        assertEquals(0.25, JainFairness.index(0, 0, 40, 0), 1e-12);
    }

    @Test
    void mixedSharesMatchTheFormula() {
        // (1+2+3)^2 / (3 * (1+4+9)) = 36 / 42
        assertEquals(36.0 / 42.0, JainFairness.index(1, 2, 3), 1e-12);
    }

    @Test
    void nothingSharedIsUndefined() {
        assertTrue(Double.isNaN(JainFairness.index(0, 0)));
    }

    @Test
    void rejectsEmptyAndNegativeShares() {
        assertThrows(IllegalArgumentException.class, JainFairness::index);
        assertThrows(IllegalArgumentException.class, () -> JainFairness.index(3, -1));
    }
}
