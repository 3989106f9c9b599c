package org.rouse.examples.scripts.internal;

import java.util.Arrays;

/**
 * Re-entry intervals and lateness of every script over one report period. Thread-safe: scripts record from the
 * timer workers, the reporter takes and resets.
 */
final class ReentryWindow {

    private static final int INITIAL_CAPACITY = 16_384;

    private long count;
    private double sumSeconds;
    private double sumSquaresSeconds;
    private long[] lateness = new long[INITIAL_CAPACITY];

    synchronized void record(long intervalNanos, long latenessNanos) {
        double seconds = intervalNanos / 1e9;
        sumSeconds += seconds;
        sumSquaresSeconds += seconds * seconds;
        if (count == lateness.length) {
            lateness = Arrays.copyOf(lateness, lateness.length * 2);
        }
        lateness[(int) count] = latenessNanos;
        count++;
    }

    /** The summary of what was recorded since the last call, which starts a new window. */
    synchronized Summary takeSummary() {
        Summary summary;
        if (count == 0) {
            summary = new Summary(0, 0, 0, 0);
        } else {
            double mean = sumSeconds / count;
            double variance = Math.max(0, sumSquaresSeconds / count - mean * mean);
            long[] sorted = Arrays.copyOf(lateness, (int) count);
            Arrays.sort(sorted);
            long p99 = sorted[Math.max(0, (int) Math.ceil(0.99 * count) - 1)];
            summary = new Summary(count, mean, Math.sqrt(variance), p99);
        }
        count = 0;
        sumSeconds = 0;
        sumSquaresSeconds = 0;
        return summary;
    }

    /** One report period: mean and standard deviation of the re-entry interval, p99 lateness. */
    record Summary(long events, double meanSeconds, double stdevSeconds, long p99LatenessNanos) {

        String line(int scripts) {
            return String.format(
                    java.util.Locale.ROOT,
                    "%d scripts: mean re-entry %.6f s, stdev %.3f ms, p99 lateness %.3f ms (%d events)",
                    scripts,
                    meanSeconds,
                    stdevSeconds * 1e3,
                    p99LatenessNanos / 1e6,
                    events);
        }
    }
}
