package org.rouse.benchmarks.lock;

/**
 * The private work a lock scenario's thread does between two operations, and the per-thread random numbers it draws
 * from: steps of one mixing function over a seed the thread keeps. The caller must use the result (to pick a key, or
 * in its round's count), or the compiler may drop the work.
 *
 * <pre>{@code
 * long seed = index + 1;
 * while (running) {
 *     seed = PrivateWork.steps(seed, PrivateWork.CONTENTION_STEPS);
 *     lock.lock(); // ...
 * }
 * }</pre>
 */
final class PrivateWork {

    /*
     * Implementation notes.
     *
     * Why not a linear congruential step. The lock scenarios used x -> a * x + c until 2026-12-08. Any number of
     * such steps is again x -> A * x + C, and the Temurin 25 JDK's C2 folds the loop accordingly: 100 steps took
     * 12.3-13.9 ns there against 119.7-122.0 ns on JDK 17 (a loop of 5,000,000 calls, AMD EPYC host), so the rows
     * named "work" measured on it had almost none (docs/performance.md, "Locks: work that the Temurin 25 JDK cannot
     * fold").
     *
     * The step. A xor-shift followed by a multiply by an odd constant and an addition (the constants of SplitMix64):
     * each part is a bijection of the 64-bit values, so the seed never sticks at a fixed point, and the xor-shift
     * makes the step non-affine, so no compiler can compose n steps into one. One step is a dependent chain of a
     * shift, a xor, a multiply and an add: about 1.8 ns on the AMD EPYC host on both JDKs (142-147 ns for 80 steps).
     */

    /**
     * Steps between two acquisitions in the {@code lock-contention} rows with work: about 118 ns on the AMD EPYC host,
     * about what the 100 linear steps they replaced took on JDK 17 (120 ns).
     */
    static final int CONTENTION_STEPS = 66;

    /**
     * Steps between two operations of the read-mostly scenarios: about 24 ns on the AMD EPYC host, what the 20 linear
     * steps they replaced took on JDK 17.
     */
    static final int READ_MOSTLY_STEPS = 13;

    private static final long MULTIPLIER = 0xBF58476D1CE4E5B9L;
    private static final long INCREMENT = 0x9E3779B97F4A7C15L;

    private PrivateWork() {}

    /** One step of the mixing function. */
    static long step(long seed) {
        return (seed ^ (seed >>> 31)) * MULTIPLIER + INCREMENT;
    }

    /** {@code steps} steps from {@code seed}. */
    static long steps(long seed, int steps) {
        for (int i = 0; i < steps; i++) {
            seed = step(seed);
        }
        return seed;
    }
}
