package org.rouse.jobs.internal;

import java.time.Instant;

/**
 * One job's counters: runs, failures, skipped runs, and the lateness and run time of its runs. Lateness is measured
 * from the run's due time (the timer's monotonic deadline; for a manual trigger, the moment of the trigger) to the
 * start of the job's code on a pool thread, so it includes the timer's own lateness and the hand-off.
 *
 * <p>Thread-safe: runs on pool threads record, the shell reads; all under this object's monitor (a run records once,
 * so the lock is never contended for long).
 */
final class JobStatistics {

    /** A consistent copy of the counters. Nanosecond figures are 0 before the first run. */
    record Snapshot(
            long runs,
            long failures,
            long skipped,
            Instant lastStart,
            long lastLatenessNanos,
            long maxLatenessNanos,
            long meanLatenessNanos,
            long lastRunNanos,
            long maxRunNanos,
            long meanRunNanos) {}

    private long runs;
    private long failures;
    private long skipped;
    private long elsewhere;
    private Instant lastStart;
    private long lastLateness;
    private long maxLateness;
    private long sumLateness;
    private long lastRun;
    private long maxRun;
    private long sumRun;

    synchronized void record(Instant start, long latenessNanos, long runNanos, boolean failed) {
        long lateness = Math.max(0, latenessNanos);
        runs++;
        if (failed) {
            failures++;
        }
        lastStart = start;
        lastLateness = lateness;
        maxLateness = Math.max(maxLateness, lateness);
        sumLateness += lateness;
        lastRun = runNanos;
        maxRun = Math.max(maxRun, runNanos);
        sumRun += runNanos;
    }

    synchronized void skipped() {
        skipped++;
    }

    /** A due run of a runOn job that another node runs. */
    synchronized void elsewhere() {
        elsewhere++;
    }

    /** Due runs left to another node (runOn jobs in a cluster). */
    synchronized long elsewhereCount() {
        return elsewhere;
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(
                runs,
                failures,
                skipped,
                lastStart,
                lastLateness,
                maxLateness,
                runs == 0 ? 0 : sumLateness / runs,
                lastRun,
                maxRun,
                runs == 0 ? 0 : sumRun / runs);
    }
}
