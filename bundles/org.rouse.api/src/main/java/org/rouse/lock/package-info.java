/**
 * The Rouse lock provider: {@link java.util.concurrent.locks.Lock}s whose locking strategy is chosen by
 * configuration and can be swapped at run time, while the lock is held and waited for, without two threads ever
 * holding it at once.
 *
 * <pre>{@code
 * @Component
 * public class KeySpace {
 *     @Reference
 *     private LockService locks;
 *     private LockStripes stripes;
 *
 *     @Activate
 *     void activate() {
 *         stripes = locks.stripes("keyspace", 64);
 *     }
 *
 *     void put(String key, byte[] value) {
 *         Lock lock = stripes.forKey(key);
 *         lock.lock();
 *         try {
 *             map.put(key, value);
 *         } finally {
 *             lock.unlock();
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Read-mostly data takes a {@link org.rouse.lock.SwappableReadWriteLock} instead:
 *
 * <pre>{@code
 * SwappableReadWriteLock routes = locks.readWriteLock("routes");
 * routes.readLock().lock();      // many readers at once
 * try {
 *     return table.get(key);
 * } finally {
 *     routes.readLock().unlock();
 * }
 * }</pre>
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Lock semantics.</b> Every lock is reentrant and honours the whole {@link java.util.concurrent.locks.Lock}
 *       contract: {@code tryLock}, timed {@code tryLock} and {@code lockInterruptibly} honour interrupts, and
 *       {@code newCondition()} returns conditions with {@link java.util.concurrent.locks.Condition}'s semantics
 *       (spurious wakeups allowed, lost signals never).
 *   <li><b>Bad input.</b> {@code unlock} by a thread that does not hold the lock, and condition methods called
 *       without holding it, throw {@link java.lang.IllegalMonitorStateException}. Names are non-empty; stripe counts
 *       are positive.
 *   <li><b>Names.</b> The same name gives the same lock. Names live in the consuming bundle's own namespace unless
 *       {@link org.rouse.lock.LockService#sharedLock(String)} is used on purpose.
 *   <li><b>Strategies.</b> Configuration chooses the strategy (a default and per name pattern). Changing it, or
 *       updating the provider bundle, swaps the strategy of live locks: holders keep holding, waiters go on waiting,
 *       and holders of the old and the new strategy never overlap. For read-write locks: a writer never holds the
 *       lock together with anyone else, readers only with readers, across swaps too.
 *   <li><b>Clean-up.</b> When the consuming bundle stops, its named locks are forgotten.
 *   <li><b>Cluster locks.</b> When the optional cluster bundle is configured, the names it is configured for
 *       ({@code lock}, {@code sharedLock} and {@code readWriteLock}) are one lock across every process of the
 *       cluster, in every bundle: they are {@link org.rouse.lock.FencedLock}s (and
 *       {@link org.rouse.lock.FencedReadWriteLock}s), with fencing tokens and a validity that a lost connection
 *       ends. Other names, anonymous locks and stripes stay local.
 * </ul>
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.3.0")
package org.rouse.lock;
