package org.rouse.jobs.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Decides which node of a cluster runs a job that carries {@code scheduler.runOn}. The jobs bundle joins each such job
 * when it schedules it and asks {@link Membership#runsHere()} at every due run; it closes the membership when the job
 * goes away or the placement service does.
 *
 * <pre>{@code
 * JobPlacement.Membership membership = placement.join("nightly-report", JobPlacement.LEADER);
 * // at every due run:
 * if (membership.runsHere()) { runTheJob(); }
 * // when the job is unregistered:
 * membership.close();
 * }</pre>
 *
 * <p>{@link #LEADER}: the job runs on the one node that holds its leadership. {@link #SINGLE}: the same exclusion,
 * but the jobs are spread over the nodes (each job on exactly one node at a time). A node that loses its connection
 * to the coordination service stops running the job at once; another node takes over within the session timeout.
 *
 * @since 1.0
 */
@ConsumerType
public interface JobPlacement {

    /** Run on the node holding the job's leadership. */
    String LEADER = "LEADER";

    /** Run on exactly one node, jobs spread over the nodes. */
    String SINGLE = "SINGLE";

    /**
     * Takes part in placing the job {@code jobName} (unique per cluster) in {@code runOn} mode.
     *
     * @throws IllegalArgumentException if {@code runOn} is neither {@link #LEADER} nor {@link #SINGLE}
     */
    Membership join(String jobName, String runOn);

    /**
     * This node's part in placing one job.
     *
     * @since 1.0
     */
    @ProviderType
    interface Membership extends AutoCloseable {

        /** Whether this node runs the job now; cheap (no I/O), called at every due run. */
        boolean runsHere();

        /** Leaves; {@link #runsHere()} is false afterwards. Idempotent. */
        @Override
        void close();
    }
}
