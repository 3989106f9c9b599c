package org.rouse.jobs.internal;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.felix.service.command.Descriptor;

/**
 * The shell commands {@code rouse:jobs} and {@code rouse:trigger <name>}. Registered by {@link JobWhiteboard} as a
 * plain service with {@code osgi.command.scope=rouse} and {@code osgi.command.function=[jobs, trigger]}, so the bundle
 * needs Gogo only for the optional {@link Descriptor} help; under Apache Karaf's shell it is registered without those
 * properties and the Action commands of {@code org.rouse.jobs.internal.karaf} call it. Both write to
 * {@code System.out}, which Gogo (Felix and Karaf alike) points at the calling session.
 *
 * <pre>
 * g! rouse:jobs
 * name              bundle                        schedule        next s  last run  runs fail skip  late last/max ms  run last/mean/max ms
 * cleanup           org.example.app [42]          every 60s       12.301  47.7s ago    3    0    0  0.081/0.130       2.003/1.950/2.200
 * </pre>
 */
public final class JobCommands {

    /*
     * Help texts, shared by the Gogo functions' @Descriptor and the Karaf Action commands
     * (org.rouse.jobs.internal.karaf), so both shells describe a command alike.
     */

    /** Help of {@code rouse:jobs}. */
    public static final String JOBS_HELP = "Whiteboard jobs: schedule, next and last run, runs, failures, skipped runs,"
            + " runs in flight, lateness and run time";

    /** Help of {@code rouse:trigger <name>}. */
    public static final String TRIGGER_HELP =
            "Run a whiteboard job now (a job that is running and not concurrent is" + " not started again)";

    /** Help of the argument of {@code rouse:trigger <name>}. */
    public static final String NAME_ARGUMENT_HELP = "the job's name as rouse:jobs lists it (scheduler.name)";

    private final JobsCore core;

    JobCommands(JobsCore core) {
        this.core = core;
    }

    /** Prints every job with its next and last run, lateness, run time and failures ({@code rouse:jobs}). */
    @Descriptor(JOBS_HELP)
    public void jobs() {
        System.out.print(report());
    }

    /** Runs the job named {@code name} now ({@code rouse:trigger <name>}); prints what happened. */
    @Descriptor(TRIGGER_HELP)
    public void trigger(@Descriptor(NAME_ARGUMENT_HELP) String name) {
        trigger(name, System.out);
    }

    void trigger(String name, PrintStream out) {
        Optional<Job> job = core.byName(name);
        if (job.isEmpty()) {
            out.println("no job named " + name + " (rouse:jobs lists them)");
            return;
        }
        switch (job.get().trigger()) {
            case STARTED -> out.println("job " + name + " started");
            case BUSY -> out.println("job " + name + " is running and not concurrent: not started");
            case STOPPED -> out.println("job " + name + " has stopped");
        }
    }

    /** The names of the scheduled jobs, in registration order; for shell completion. */
    public List<String> names() {
        return core.jobs().stream().map(job -> job.spec.name()).toList();
    }

    /** The {@code rouse:jobs} table as text; not a shell function (the shell's is {@link #jobs()}). */
    public String report() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "%-24s %-32s %-34s %9s %10s %6s %5s %5s %3s  %-18s %s%n",
                "name",
                "bundle",
                "schedule",
                "next s",
                "last run",
                "runs",
                "fail",
                "skip",
                "now",
                "late last/max ms",
                "run last/mean/max ms"));
        Instant now = Instant.now();
        for (Job job : core.jobs()) {
            JobStatistics.Snapshot s = job.statistics();
            Optional<Duration> next = job.nextRun();
            String nextText = next.map(d -> String.format(Locale.ROOT, "%.3f", d.toNanos() / 1e9))
                    .orElse(job.isFinished() ? "done" : "-");
            String lastText = s.lastStart() == null
                    ? "never"
                    : String.format(
                            Locale.ROOT,
                            "%.1fs ago",
                            Duration.between(s.lastStart(), now).toMillis() / 1e3);
            String schedule = job.spec.describe()
                    + (job.spec.concurrent() ? " concurrent" : "")
                    + (job.spec.runOn() == null ? "" : " runOn=" + job.spec.runOn() + "(" + job.placementState() + ")");
            out.append(String.format(
                    Locale.ROOT,
                    "%-24s %-32s %-34s %9s %10s %6d %5d %5d %3d  %-18s %s%n",
                    job.spec.name(),
                    job.bundle,
                    schedule,
                    nextText,
                    lastText,
                    s.runs(),
                    s.failures(),
                    s.skipped(),
                    job.inFlight(),
                    String.format(Locale.ROOT, "%.3f/%.3f", s.lastLatenessNanos() / 1e6, s.maxLatenessNanos() / 1e6),
                    String.format(
                            Locale.ROOT,
                            "%.3f/%.3f/%.3f",
                            s.lastRunNanos() / 1e6,
                            s.meanRunNanos() / 1e6,
                            s.maxRunNanos() / 1e6)));
        }
        return out.toString();
    }
}
