package org.rouse.jobs.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.rouse.jobs.spi.JobPlacement;
import org.rouse.timer.TimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OSGi-free whiteboard: turns job services (a {@code service.id}, its properties and the code to run) into
 * scheduled {@link Job}s on a {@link TimerService} view, and forgets them when their service goes away.
 *
 * <p>A service whose {@code scheduler.*} properties are not valid is not scheduled; one ERROR line names the service
 * (registering bundle and {@code service.id}), the property, its value and what is allowed. Job names are unique: a
 * second service with a name in use is rejected the same way.
 *
 * <p>Thread-safe: the whiteboard's bind, update and unbind calls and the shell's reads are serialized on this object.
 */
final class JobsCore {

    /*
     * Implementation notes.
     *
     * Layout. Jobs by service.id, in registration order (the shell lists them in that order). Each Job owns a timer
     * owner of the jobs bundle's TimerService view, so a job that stops cancels exactly its own timers, and the timer
     * front's engine swaps move them like any consumer's.
     *
     * Sources. Property names, the "expression before period" rule and skipping a run that would overlap the
     * previous one follow the Apache Sling Commons Scheduler whiteboard (WhiteboardHandler, QuartzJobExecutor), which
     * Apache Karaf's scheduler derives from.
     *
     * Invariant. While a placement service is set, every runOn job holds a membership of it (or NOWHERE) from before
     * its timer is armed until after it is stopped, and a change of placement service hands each job its new
     * membership before closing the old one: a due run never sees a runOn job without a membership and so never
     * starts here as a local job while another node may lead it. Once a placement service has been set, its going
     * away without a replacement (the cluster bundle stopped or updated, its configuration removed) parks every runOn
     * job on NOWHERE until a placement returns: other nodes may still lead those jobs, so running them here would run
     * them twice. Only a jobs core that never had a placement runs runOn jobs here.
     */

    private static final Logger LOG = LoggerFactory.getLogger(JobsCore.class);

    private final TimerService timers;
    private final Executor executor;
    /** Guarded by this. */
    private final Map<Long, Job> jobs = new LinkedHashMap<>();
    /** Guarded by this. */
    private boolean closed;
    /** The cluster's job placement, or null (runOn jobs run here, unless placementLost); guarded by this. */
    private JobPlacement placement;
    /** Whether a placement was set and went away with none in its place (runOn jobs run nowhere); guarded by this. */
    private boolean placementLost;

    JobsCore(TimerService timers, Executor executor) {
        this.timers = timers;
        this.executor = executor;
    }

    /**
     * Schedules a job service, or logs why not.
     *
     * @param serviceId the service's {@code service.id}
     * @param bundle the registering bundle as {@code symbolic-name [id]}
     * @param kind the whiteboard type it was found under ({@code Runnable}, {@code Callable})
     * @param properties the service's properties
     * @param task the job's code
     * @return whether the job is scheduled
     */
    synchronized boolean add(
            long serviceId, String bundle, String kind, Function<String, Object> properties, Callable<?> task) {
        if (closed || jobs.containsKey(serviceId)) {
            // a service registered as both Runnable and Callable is one job, found under the first type bound
            return false;
        }
        JobSpec spec;
        try {
            spec = JobProperties.read(properties, serviceId);
        } catch (JobProperties.InvalidJobException e) {
            LOG.error(
                    "Job service of bundle {}, service.id {} is not scheduled: {}", bundle, serviceId, e.getMessage());
            return false;
        } catch (IllegalArgumentException notAJob) {
            return false;
        }
        for (Job other : jobs.values()) {
            if (other.spec.name().equals(spec.name())) {
                LOG.error(
                        "Job service of bundle {}, service.id {} is not scheduled: {} = {} is not allowed: a name no"
                                + " other job uses (service.id {} of bundle {} has it)",
                        bundle,
                        serviceId,
                        JobProperties.NAME,
                        JobProperties.render(spec.name()),
                        other.serviceId,
                        other.bundle);
                return false;
            }
        }
        if (!spec.notes().isEmpty()) {
            LOG.info(
                    "Job {} (bundle {}, service.id {}) runs on its scheduler.expression; {} do not apply to a cron"
                            + " job and are ignored",
                    spec.name(),
                    bundle,
                    serviceId,
                    spec.notes());
        }
        if (spec.runOn() != null && placement == null) {
            LOG.info(
                    "Job {} (bundle {}, service.id {}) has scheduler.runOn={}: no cluster is configured (bundle"
                            + " org.rouse.cluster with a connect.string), so it runs on this node like any other job",
                    spec.name(),
                    bundle,
                    serviceId,
                    spec.runOn());
        }
        Job job = new Job(spec, serviceId, bundle, kind, task, timers, executor);
        place(job); // before the timer is armed: an immediate run is due at once (invariant)
        try {
            job.start();
        } catch (RuntimeException e) {
            // the bundle's pending-timer cap (RejectedExecutionException) or a released view (IllegalStateException)
            job.stop();
            unplace(job);
            LOG.error(
                    "Job {} (bundle {}, service.id {}) could not be scheduled on the timer service",
                    spec.name(),
                    bundle,
                    serviceId,
                    e);
            return false;
        }
        jobs.put(serviceId, job);
        LOG.debug("Job {} (bundle {}, service.id {}) scheduled: {}", spec.name(), bundle, serviceId, spec.describe());
        return true;
    }

    /** Stops and forgets the job of {@code serviceId} if it was found under {@code kind}. */
    synchronized void remove(long serviceId, String kind) {
        Job job = jobs.get(serviceId);
        if (job != null && job.kind.equals(kind)) {
            jobs.remove(serviceId);
            job.stop();
            unplace(job);
        }
    }

    /**
     * Sets the cluster's job placement (null: every job runs here): every runOn job leaves the old one and joins the
     * new one.
     */
    synchronized void placement(JobPlacement next) {
        if (next == placement) {
            return;
        }
        if (next == null && placement != null) {
            placementLost = true;
            long parked =
                    jobs.values().stream().filter(j -> j.spec.runOn() != null).count();
            if (parked > 0) {
                LOG.warn(
                        "The cluster's job placement went away: {} runOn job(s) run nowhere until it returns (another"
                                + " node may lead them); restart org.rouse.jobs to run them on this node alone",
                        parked);
            }
        } else if (next != null) {
            placementLost = false;
        }
        placement = next;
        for (Job job : jobs.values()) {
            JobPlacement.Membership old = job.placement();
            place(job); // the new membership (or NOWHERE) replaces the old one with no gap between them (invariant)
            if (old != null) {
                old.close();
            }
        }
    }

    /** Clears the placement if it is {@code gone} (a replacement bound first stays). */
    synchronized void placementGone(JobPlacement gone) {
        if (placement == gone) {
            placement(null);
        }
    }

    /** Under this. */
    private void place(Job job) {
        if (job.spec.runOn() == null) {
            return;
        }
        if (placement == null) {
            job.placement(placementLost ? NOWHERE : null);
            return;
        }
        try {
            job.placement(placement.join(job.spec.name(), job.spec.runOn()));
        } catch (RuntimeException e) {
            LOG.error(
                    "Job {} ({}) could not join the cluster's job placement; it runs nowhere until the placement"
                            + " service changes",
                    job.spec.name(),
                    job.bundle,
                    e);
            job.placement(NOWHERE);
        }
    }

    /** Under this. */
    private static void unplace(Job job) {
        JobPlacement.Membership old = job.placement();
        job.placement(null);
        if (old != null) {
            old.close();
        }
    }

    /** A membership that never runs the job. */
    static final JobPlacement.Membership NOWHERE = new JobPlacement.Membership() {
        @Override
        public boolean runsHere() {
            return false;
        }

        @Override
        public void close() {}
    };

    /** The job named {@code name}, if any. */
    synchronized Optional<Job> byName(String name) {
        return jobs.values().stream().filter(j -> j.spec.name().equals(name)).findFirst();
    }

    /** The scheduled jobs in registration order. */
    synchronized List<Job> jobs() {
        return new ArrayList<>(jobs.values());
    }

    /** Stops every job; later {@link #add} calls schedule nothing. */
    synchronized void close() {
        closed = true;
        for (Job job : jobs.values()) {
            job.stop();
            unplace(job);
        }
        jobs.clear();
    }
}
