package org.rouse.lock;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A cluster read-write lock: its read and write locks are {@link FencedLock}s. Every grant of either gets a fencing
 * token; a writer's token is larger than that of every grant before it, and every grant after the writer's release
 * has a larger token than the writer's. Readers may hold at once, so their tokens only order them against writers.
 *
 * <pre>{@code
 * FencedReadWriteLock routes = (FencedReadWriteLock) locks.readWriteLock("cluster.routes");
 * routes.writeLock().lock();
 * try {
 *     table.publish(routes.writeLock().fencingToken(), newRoutes);
 * } finally {
 *     routes.writeLock().unlock();
 * }
 * }</pre>
 *
 * <p>Unlike a local {@link SwappableReadWriteLock}, a reader cannot downgrade into a writer and a writer that takes
 * the read lock holds both; see the cluster guide for the details of the underlying recipe.
 *
 * @since 1.3
 */
@ProviderType
public interface FencedReadWriteLock extends SwappableReadWriteLock {

    @Override
    FencedLock readLock();

    @Override
    FencedLock writeLock();
}
