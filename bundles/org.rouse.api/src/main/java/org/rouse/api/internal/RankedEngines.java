package org.rouse.api.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;

/**
 * The engine services a front knows about, ordered the OSGi way: highest {@code service.ranking}, then lowest
 * {@code service.id}. Not thread-safe: the owning front calls it under its own lock.
 *
 * <p>The order is taken from each reference's properties when it is added or {@linkplain #update updated}, never
 * from the live reference: a {@link ServiceReference}'s {@code compareTo} reads the registration's current
 * properties, so a sorted map keyed by live references breaks when a ranking changes (the map is no longer sorted, and
 * a later lookup can miss its entry). A front calls {@link #update} from its reference's {@code updated} callback.
 *
 * <pre>{@code
 * synchronized (engines) { front.swapTo(engines.add(reference, engine)); }     // bind
 * synchronized (engines) { front.swapTo(engines.update(reference, engine)); }  // updated: ranking may have changed
 * synchronized (engines) { front.swapTo(engines.remove(reference)); }          // unbind
 * }</pre>
 *
 * @param <E> the engine type
 */
public final class RankedEngines<E> {

    /*
     * Implementation notes. Layout: `ranks` maps each known service (by its service.id, which never changes) to the
     * rank it was filed under; `engines` is sorted by that rank. Invariant: both hold the same services, and each is
     * filed in `engines` under exactly the rank `ranks` gives it, so a removal always finds the entry it filed.
     * Costs: O(log n) per call.
     */

    /** The rank of a reference when it was last added or updated: ascending order, the last is the best. */
    private record Rank(int ranking, long serviceId) implements Comparable<Rank> {
        @Override
        public int compareTo(Rank other) {
            if (ranking != other.ranking) {
                return Integer.compare(ranking, other.ranking);
            }
            return Long.compare(other.serviceId, serviceId); // a lower id ranks higher
        }

        static Rank of(ServiceReference<?> reference) {
            Object ranking = reference.getProperty(Constants.SERVICE_RANKING);
            return new Rank(ranking instanceof Integer value ? value : 0, idOf(reference));
        }
    }

    /** The rank each known service, by {@code service.id}, is filed under in {@link #engines}. */
    private final Map<Long, Rank> ranks = new HashMap<>();
    /** Engines by rank, ascending: the last key is the best-ranked service. */
    private final TreeMap<Rank, E> engines = new TreeMap<>();

    /** Adds an engine (or re-files it if its reference is known); returns the best engine afterwards. */
    public E add(ServiceReference<?> reference, E engine) {
        Rank previous = ranks.remove(idOf(reference));
        if (previous != null) {
            engines.remove(previous);
        }
        Rank rank = Rank.of(reference);
        ranks.put(rank.serviceId(), rank);
        engines.put(rank, engine);
        return best();
    }

    /**
     * Re-files an engine whose service properties changed (its ranking may have); returns the best engine
     * afterwards. An unknown reference is added.
     */
    public E update(ServiceReference<?> reference, E engine) {
        return add(reference, engine);
    }

    /** Removes an engine; returns the best engine afterwards, or {@code null} if none is left. */
    public E remove(ServiceReference<?> reference) {
        Rank rank = ranks.remove(idOf(reference));
        if (rank != null) {
            engines.remove(rank);
        }
        return best();
    }

    private static long idOf(ServiceReference<?> reference) {
        return (Long) reference.getProperty(Constants.SERVICE_ID); // set by the framework on every registration
    }

    /** The best-ranked engine, or {@code null}. */
    public E best() {
        Map.Entry<Rank, E> last = engines.lastEntry();
        return last == null ? null : last.getValue();
    }
}
