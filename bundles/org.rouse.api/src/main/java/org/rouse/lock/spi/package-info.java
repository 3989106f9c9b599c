/**
 * The service provider interface between the lock front (in the API bundle) and lock engines (in swappable provider
 * bundles). Consumers never use this package.
 *
 * <p>An engine offers named strategies and makes {@link org.rouse.lock.spi.LockPrimitive}s: plain, non-reentrant
 * mutexes, and, since 1.2, {@link org.rouse.lock.spi.ReadWritePrimitive}s (an engine that predates them, or offers
 * none, leaves read-write locks on the front's built-in fallback). The front wraps them in {@link
 * org.rouse.lock.SwappableLock} facades that add reentrancy, conditions, statistics and the swap protocol; consumers
 * only ever hold facades. The engine registered as a {@link org.rouse.lock.spi.LockEngine} service with the highest
 * {@code service.ranking} (then the lowest {@code service.id}) is active.
 *
 * <p>Two final classes let an engine hand out the JDK's AQS as a primitive that the front's facades call without
 * interface dispatch: {@link org.rouse.lock.spi.AqsMutex} (since 1.4; the AQS itself since 1.7) and
 * {@link org.rouse.lock.spi.AqsReadWrite} (since 1.5). An engine's own barging mutex can extend
 * {@link org.rouse.lock.spi.BargingMutex} (since 1.7), whose fast paths are final so that the facades inline them too,
 * and supply only the paths that wait and wake.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.9.0")
package org.rouse.lock.spi;
