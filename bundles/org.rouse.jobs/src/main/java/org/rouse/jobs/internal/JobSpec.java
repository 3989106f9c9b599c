package org.rouse.jobs.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A validated job schedule, read from a service's {@code scheduler.*} properties by {@link JobProperties}.
 *
 * <p>Exactly one of {@code cron} and {@code period} is set: a cron expression wins over a period (Sling's rule), and
 * then {@code immediate} and {@code times} do not apply.
 *
 * @param name the job's name: {@code scheduler.name}, or {@code service.pid + "." + service.id}, or
 *     {@code "job." + service.id}
 * @param cron the cron schedule, or null for a periodic job
 * @param period the period of a periodic job, or null for a cron job
 * @param concurrent whether a run may start while the previous one is still running
 * @param immediate whether a periodic job's first run is due at once (otherwise one period after registration)
 * @param times how many runs a periodic job makes before it is done; {@link #UNLIMITED} for no limit
 * @param runOn {@code LEADER}, {@code SINGLE}, or null when not set
 * @param notes properties that were set but do not apply, for one information line
 */
record JobSpec(
        String name,
        CronSchedule cron,
        Duration period,
        boolean concurrent,
        boolean immediate,
        long times,
        String runOn,
        List<String> notes) {

    /** {@link #times()} of a job that runs until its service goes away. */
    static final long UNLIMITED = -1;

    JobSpec {
        Objects.requireNonNull(name, "name");
        if ((cron == null) == (period == null)) {
            throw new IllegalArgumentException("exactly one of cron and period");
        }
        notes = List.copyOf(notes);
    }

    /** Whether the job runs on a cron schedule (otherwise every {@link #period()}). */
    boolean isCron() {
        return cron != null;
    }

    /** The schedule as {@code rouse:jobs} prints it: {@code cron <expression>} or {@code every <n>s [x<times>]}. */
    String describe() {
        if (isCron()) {
            return "cron " + cron;
        }
        return "every " + period.getSeconds() + "s" + (times == UNLIMITED ? "" : " x" + times)
                + (immediate ? " (immediate)" : "");
    }
}
