/**
 * The service provider interface between the timer front (in the API bundle) and timer engines (in swappable
 * provider bundles). Consumers never use this package.
 *
 * <p>The split keeps hot swaps lossless: every object a consumer holds (owners, timers, their state and deadlines)
 * lives in the API bundle; an engine only arms deadlines and runs tasks. To swap, the front points new work at the
 * new engine, {@linkplain org.rouse.timer.spi.TimerEngine#drain() drains} the old one and arms what it returned in
 * the new one. An engine registers itself as a {@link org.rouse.timer.spi.TimerEngine} service; the one with the
 * highest {@code service.ranking} (then the lowest {@code service.id}) is active.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.3.0")
package org.rouse.timer.spi;
