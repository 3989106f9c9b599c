package org.rouse.benchmarks.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrivateWorkTest {

    /**
     * An affine step (x -> a * x + c, the linear congruential step these scenarios used) has f(x + d) - f(x) = a * d
     * for every x, and so has any number of its steps, which is what lets a compiler fold them into one. The mixing
     * step must not have that property: the differences over one distance must vary with x.
     */
    @Test
    void stepsAreNotAffineSoACompilerCannotFoldThem() {
        Set<Long> differences = new HashSet<>();
        for (long x = 1; x <= 64; x++) {
            long y = x * 0x2545F4914F6CDD1DL;
            differences.add(PrivateWork.steps(y + 1, PrivateWork.CONTENTION_STEPS)
                    - PrivateWork.steps(y, PrivateWork.CONTENTION_STEPS));
        }
        assertEquals(64, differences.size(), "an affine map gives one difference for every x");
    }

    @Test
    void zeroIsNoFixedPoint() {
        assertNotEquals(0L, PrivateWork.step(0L));
        assertEquals(PrivateWork.step(PrivateWork.step(0L)), PrivateWork.steps(0L, 2));
    }

    /** The read-mostly scenarios draw their key and their 5 % or 25 % of writes from the seed after each work. */
    @Test
    void theReadMostlyDrawsKeepTheirWriteShareAndSpreadOverTheKeys() {
        long seed = 1;
        int draws = 200_000;
        int fivePercent = 0;
        int quarter = 0;
        int[] keys = new int[ReadMostlyVariant.MAP_KEYS];
        for (int i = 0; i < draws; i++) {
            seed = PrivateWork.steps(seed, PrivateWork.READ_MOSTLY_STEPS);
            fivePercent += ReadMostlyVariant.isWrite(5, seed) ? 1 : 0;
            quarter += ReadMostlyVariant.isWrite(25, seed) ? 1 : 0;
            keys[ReadMostlyVariant.keyOf(seed)]++;
        }
        assertEquals(0.05, fivePercent / (double) draws, 0.002);
        assertEquals(0.25, quarter / (double) draws, 0.005);
        double expected = draws / (double) keys.length;
        for (int count : keys) {
            assertEquals(expected, count, expected * 0.1, "every key drawn about as often");
        }
    }
}
