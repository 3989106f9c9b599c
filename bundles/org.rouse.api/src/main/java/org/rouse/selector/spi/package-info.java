/**
 * The service provider interface between the selector front (in the API bundle) and selector engines (in
 * swappable provider bundles). Consumers never use this package.
 *
 * <p>Every object a consumer holds (registrations, their interest operations, handlers) lives in the API bundle; an
 * engine owns selectors, the loop threads and the worker pool. To swap, the front points new work at the new
 * engine, {@linkplain org.rouse.selector.spi.SelectorEngine#drain() drains} the old one (its channels are
 * deregistered but stay open) and attaches the returned entries to the new one. The engine registered as a
 * {@link org.rouse.selector.spi.SelectorEngine} service with the highest {@code service.ranking} (then the lowest
 * {@code service.id}) is active.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.rouse.selector.spi;
