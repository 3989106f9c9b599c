/**
 * Value types shared by the statistics of every Rouse service.
 *
 * <p>Every service reports durations the same way: a {@link org.rouse.stats.Percentiles} snapshot in
 * nanoseconds, taken from a sampled histogram and safe to keep after the service has changed.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rouse.stats;
