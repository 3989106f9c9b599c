/**
 * Helpers for validating component configuration the way every Rouse component does: check every property, and
 * if any is out of range reject the whole configuration with one message naming each property, its value and the
 * allowed range, keeping the last good configuration in force.
 *
 * <pre>{@code
 * @Activate @Modified
 * void configure(Config config) {
 *     ConfigCheck check = new ConfigCheck(PID);
 *     long threads = check.inRange("pool.threads", config.pool_threads(), 1, 1024);
 *     if (!check.passed()) {
 *         log.error(check.rejection());
 *         return; // the last good configuration stays
 *     }
 *     apply(threads);
 * }
 * }</pre>
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.rouse.config;
