package org.rouse.api.internal;

import java.util.Map;
import java.util.TreeMap;
import org.osgi.framework.ServiceReference;

/**
 * The engine services a front knows about, ordered the OSGi way: highest {@code service.ranking}, then lowest
 * {@code service.id}. Not thread-safe: the owning front calls it under its own lock.
 *
 * @param <E> the engine type
 */
public final class RankedEngines<E> {

    /** Ascending by {@link ServiceReference#compareTo}: the last key is the best-ranked service. */
    private final TreeMap<ServiceReference<?>, E> engines = new TreeMap<>();

    /** Adds an engine; returns the best engine afterwards. */
    public E add(ServiceReference<?> reference, E engine) {
        engines.put(reference, engine);
        return best();
    }

    /** Removes an engine; returns the best engine afterwards, or {@code null} if none is left. */
    public E remove(ServiceReference<?> reference) {
        engines.remove(reference);
        return best();
    }

    /** The best-ranked engine, or {@code null}. */
    public E best() {
        Map.Entry<ServiceReference<?>, E> last = engines.lastEntry();
        return last == null ? null : last.getValue();
    }
}
