/**
 * The lock front (private to the API bundle): the {@link org.rouse.lock.LockService} views, the
 * {@link org.rouse.lock.SwappableLock} facades that consumers hold, and the built-in fallback primitive used while no
 * {@link org.rouse.lock.spi.LockEngine} is registered. Never exported.
 */
package org.rouse.api.internal.lock;
