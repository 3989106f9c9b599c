/**
 * The service provider interface between the whiteboard jobs bundle and a cluster bundle: where a job with
 * {@code scheduler.runOn} ({@code LEADER} or {@code SINGLE}) runs. Without a {@link org.rouse.jobs.spi.JobPlacement}
 * service every job runs on its own node. Consumers never use this package.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rouse.jobs.spi;
