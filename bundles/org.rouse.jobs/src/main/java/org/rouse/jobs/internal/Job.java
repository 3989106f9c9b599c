package org.rouse.jobs.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.rouse.jobs.spi.JobPlacement;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerEvent;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduled whiteboard job: its own timer owner on the timer service, whose timer hands each due run to the jobs'
 * thread pool, and the job's statistics.
 *
 * <p>A run that falls due while the previous one still runs is skipped and counted unless the job is
 * {@linkplain JobSpec#concurrent() concurrent} (Sling's rule). {@link #stop()} closes the owner: no run starts after
 * it returns; a run already started is not interrupted.
 */
final class Job {

    /*
     * Implementation notes.
     *
     * Layout. The timer (periodic, or a chain of one-shots for a cron job) belongs to an owner of this job alone, so
     * jobs never wait for each other's timer handlers, and closing the owner cancels everything the job armed. The
     * timer handler only decides and hands off: the job itself runs on the executor, so a slow job never holds one of
     * the timer provider's workers (shared with every other bundle's timers).
     *
     * Invariants. With concurrent=false, `running` is true from the hand-off until the run's finally block, so at
     * most one run is in flight. `started` counts scheduled runs (not manual triggers, not skipped firings); the
     * timer is cancelled when it reaches `times`. A cron job arms its next one-shot before handing off the current
     * run, at the next cron time strictly after both now and the time just armed, so a timer that fires a little
     * before the wall-clock second (the timer runs on the monotonic clock) cannot arm the same second twice.
     *
     * Costs. One timer and one owner per job; each run one executor hand-off.
     */

    private static final Logger LOG = LoggerFactory.getLogger(Job.class);

    /** What {@link #trigger()} did. */
    enum Outcome {
        STARTED,
        /** Not concurrent and a run is in flight. */
        BUSY,
        STOPPED
    }

    final JobSpec spec;
    final long serviceId;
    /** The registering bundle as logs and the shell show it: {@code symbolic-name [id]}. */
    final String bundle;
    /** Which whiteboard reference bound the service ({@code Runnable} or {@code Callable}). */
    final String kind;

    private final Callable<?> task;
    private final Executor executor;
    private final TimerOwner owner;
    private final JobStatistics statistics = new JobStatistics();

    /** Written by whoever calls start and the owner's timer handlers (one at a time), under this. */
    private Timer timer;
    /** The wall-clock time the cron job's timer is armed for; under this. */
    private ZonedDateTime armedFor;
    /** Written once by stop (any thread), read by handlers and runs: volatile so they see it promptly. */
    private volatile boolean stopped;
    /** Where a runOn job runs (null: here); volatile, written by JobsCore under its monitor. */
    private volatile JobPlacement.Membership placement;
    /** Whether a cron job has no next time; written under this, read by the shell. */
    private volatile boolean finished;

    /** Set by the hand-off, cleared by the run's end (pool thread); only for non-concurrent jobs. */
    private final AtomicBoolean running = new AtomicBoolean();
    /** Runs handed off and not yet finished; for the shell and tests. */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Scheduled runs handed off, counted against {@code times}; incremented by the owner's timer handler. */
    private final AtomicLong started = new AtomicLong();

    Job(
            JobSpec spec,
            long serviceId,
            String bundle,
            String kind,
            Callable<?> task,
            TimerService timers,
            Executor executor) {
        this.spec = spec;
        this.serviceId = serviceId;
        this.bundle = bundle;
        this.kind = kind;
        this.task = task;
        this.executor = executor;
        this.owner = timers.owner("job " + spec.name() + " [service " + serviceId + "]");
    }

    /** Arms the job's first run. */
    synchronized void start() {
        if (spec.isCron()) {
            armNextCron();
        } else {
            Duration first = spec.immediate() ? Duration.ZERO : spec.period();
            timer = owner.scheduleAtFixedRate(first, spec.period(), this::onTimer);
        }
    }

    /** Cancels the job's timer; no run starts afterwards. Idempotent. */
    void stop() {
        stopped = true;
        owner.close();
    }

    /** Starts a run now, outside the schedule (not counted against {@code times}). */
    Outcome trigger() {
        if (stopped) {
            return Outcome.STOPPED;
        }
        return handOff(System.nanoTime(), false) ? Outcome.STARTED : Outcome.BUSY;
    }

    private void onTimer(TimerEvent event) {
        if (stopped) {
            return;
        }
        if (spec.isCron()) {
            synchronized (this) {
                armNextCron();
            }
        }
        handOff(event.deadlineNanos(), true);
    }

    /** Under this. */
    private void armNextCron() {
        if (stopped) {
            return;
        }
        ZonedDateTime now = ZonedDateTime.now();
        ZonedDateTime after = armedFor != null && armedFor.isAfter(now) ? armedFor : now;
        Optional<ZonedDateTime> next = spec.cron().nextAfter(after);
        if (next.isEmpty()) {
            finished = true;
            timer = null;
            LOG.info(
                    "Job {} ({}): cron expression {} names no later time; the job is done",
                    spec.name(),
                    bundle,
                    spec.cron());
            return;
        }
        armedFor = next.get();
        try {
            timer = owner.scheduleAt(armedFor.toInstant(), this::onTimer);
        } catch (IllegalStateException closed) {
            // stop() closed the owner between the check above and here: nothing more to arm
        }
    }

    /**
     * Sets where the job runs in a cluster: null runs it here (no placement service); otherwise a due run starts only
     * while {@code placement.runsHere()}.
     */
    void placement(JobPlacement.Membership placement) {
        this.placement = placement;
    }

    JobPlacement.Membership placement() {
        return placement;
    }

    /**
     * Where a runOn job runs now: {@code here}, {@code elsewhere}, {@code nowhere} (its placement failed or went
     * away), or {@code local} without a placement service.
     */
    String placementState() {
        JobPlacement.Membership where = placement;
        return where == null
                ? "local"
                : where == JobsCore.NOWHERE ? "nowhere" : where.runsHere() ? "here" : "elsewhere";
    }

    /** Hands one run to the executor; false if a non-concurrent job's previous run is still in flight. */
    private boolean handOff(long dueNanos, boolean scheduled) {
        JobPlacement.Membership where = placement;
        if (scheduled && where != null && !where.runsHere()) {
            statistics.elsewhere();
            return false;
        }
        if (!spec.concurrent() && !running.compareAndSet(false, true)) {
            statistics.skipped();
            LOG.debug("Job {} ({}): still running, this run is skipped", spec.name(), bundle);
            return false;
        }
        if (scheduled && spec.times() != JobSpec.UNLIMITED) {
            long count = started.incrementAndGet();
            if (count >= spec.times()) {
                cancelTimer();
                finished = true;
            }
            if (count > spec.times()) {
                release();
                return false;
            }
        }
        inFlight.incrementAndGet();
        try {
            executor.execute(() -> run(dueNanos));
            return true;
        } catch (RejectedExecutionException shutDown) {
            inFlight.decrementAndGet();
            release();
            return false;
        }
    }

    private synchronized void cancelTimer() {
        if (timer != null) {
            timer.cancel();
        }
    }

    private void release() {
        if (!spec.concurrent()) {
            running.set(false);
        }
    }

    private void run(long dueNanos) {
        long start = System.nanoTime();
        Instant startedAt = Instant.now();
        boolean failed = false;
        try {
            if (!stopped) {
                task.call();
            }
        } catch (Exception | LinkageError e) {
            failed = true;
            LOG.warn("Job {} ({}, service.id {}) failed", spec.name(), bundle, serviceId, e);
        } finally {
            statistics.record(startedAt, start - dueNanos, System.nanoTime() - start, failed);
            inFlight.decrementAndGet();
            release();
        }
    }

    /** How long until the next scheduled run, or empty if none is armed. */
    synchronized Optional<Duration> nextRun() {
        if (stopped || finished || timer == null) {
            return Optional.empty();
        }
        return timer.remaining();
    }

    /** Due runs not started because the placement said the job runs on another node. */
    long runsElsewhere() {
        return statistics.elsewhereCount();
    }

    JobStatistics.Snapshot statistics() {
        return statistics.snapshot();
    }

    /** Runs handed off and not finished now. */
    int inFlight() {
        return inFlight.get();
    }

    boolean isFinished() {
        return finished;
    }

    boolean isStopped() {
        return stopped;
    }

    /** How many timers the job's owner has waiting now (0 once stopped). */
    int pendingTimers() {
        return owner.isClosed() ? 0 : owner.pendingCount();
    }
}
