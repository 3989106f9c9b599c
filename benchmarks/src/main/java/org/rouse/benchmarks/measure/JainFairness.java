package org.rouse.benchmarks.measure;

/**
 * Jain's fairness index of a set of shares (e.g. lock acquisitions per thread): {@code (Σx)² / (n·Σx²)}. It is 1 when
 * every thread got the same share and {@code 1/n} when one thread got everything (R. Jain, D. Chiu, W. Hawe, "A
 * Quantitative Measure of Fairness and Discrimination for Resource Allocation in Shared Computer Systems", DEC-TR-301,
 * 1984).
 *
 * <pre>{@code
 * double fairness = JainFairness.index(new long[] {1000, 980, 1010, 20}); // ≈ 0.80
 * }</pre>
 */
public final class JainFairness {

    private JainFairness() {}

    /**
     * The index of the given shares.
     *
     * @return a value in {@code [1/n, 1]}, or {@code NaN} when every share is zero (nobody got anything: undefined)
     * @throws IllegalArgumentException if {@code shares} is empty or holds a negative value
     */
    public static double index(long... shares) {
        if (shares.length == 0) {
            throw new IllegalArgumentException("shares must not be empty");
        }
        double sum = 0;
        double sumOfSquares = 0;
        for (long share : shares) {
            if (share < 0) {
                throw new IllegalArgumentException("shares must be >= 0: " + share);
            }
            sum += share;
            sumOfSquares += (double) share * share;
        }
        return sumOfSquares == 0 ? Double.NaN : sum * sum / (shares.length * sumOfSquares);
    }
}
