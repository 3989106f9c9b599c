package org.rouse.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Dictionary;
import java.util.Hashtable;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;

/** The best engine follows ranking changes, and a removal after one removes the right engine. */
class RankedEnginesTest {

    @Test
    void theBestIsHighestRankingThenLowestId() {
        RankedEngines<String> engines = new RankedEngines<>();
        assertNull(engines.best());
        assertEquals("a", engines.add(new Reference(1, 0), "a"));
        assertEquals("a", engines.add(new Reference(2, 0), "b"), "equal ranking: the lower service.id wins");
        assertEquals("c", engines.add(new Reference(3, 5), "c"));
        assertEquals("a", engines.remove(new Reference(3, 5)));
    }

    @Test
    void aRankingRaisedThenARemovalPicksTheRightEngine() {
        RankedEngines<String> engines = new RankedEngines<>();
        Reference low = new Reference(1, 0);
        Reference high = new Reference(2, 10);
        engines.add(low, "low");
        assertEquals("high", engines.add(high, "high"));

        low.ranking = 20; // the registration's properties change, as after a configuration update
        assertEquals("low", engines.update(low, "low"), "the raised engine leads");

        assertEquals("low", engines.remove(high), "removing the other engine keeps the raised one");
        assertEquals(null, engines.remove(low), "and removing it leaves none");
    }

    @Test
    void aRankingLoweredThenTheLeaderRemovedFallsBackToTheOther() {
        RankedEngines<String> engines = new RankedEngines<>();
        Reference first = new Reference(1, 10);
        Reference second = new Reference(2, 5);
        engines.add(first, "first");
        engines.add(second, "second");

        first.ranking = 0;
        assertEquals("second", engines.update(first, "first"), "the lowered engine no longer leads");
        second.ranking = -1;
        assertEquals("first", engines.update(second, "second"));

        assertEquals("second", engines.remove(first), "the removed engine is gone, not left as the best");
        assertEquals("second", engines.best());
    }

    /**
     * A service reference as a framework keeps it: its properties are the registration's current ones, and
     * {@code compareTo} orders by them (OSGi Core 5.2.6: ranking, then service id) at the time it is called.
     */
    private static final class Reference implements ServiceReference<Object> {
        private final long id;
        volatile int ranking;

        Reference(long id, int ranking) {
            this.id = id;
            this.ranking = ranking;
        }

        @Override
        public Object getProperty(String key) {
            return switch (key) {
                case Constants.SERVICE_ID -> id;
                case Constants.SERVICE_RANKING -> ranking;
                default -> null;
            };
        }

        @Override
        public String[] getPropertyKeys() {
            return new String[] {Constants.SERVICE_ID, Constants.SERVICE_RANKING};
        }

        @Override
        public Dictionary<String, Object> getProperties() {
            Dictionary<String, Object> properties = new Hashtable<>();
            properties.put(Constants.SERVICE_ID, id);
            properties.put(Constants.SERVICE_RANKING, ranking);
            return properties;
        }

        @Override
        public Bundle getBundle() {
            return null;
        }

        @Override
        public Bundle[] getUsingBundles() {
            return null;
        }

        @Override
        public boolean isAssignableTo(Bundle bundle, String className) {
            return true;
        }

        @Override
        public int compareTo(Object other) {
            Reference that = (Reference) other;
            if (ranking != that.ranking) {
                return Integer.compare(ranking, that.ranking);
            }
            return Long.compare(that.id, id);
        }

        @Override
        public <A> A adapt(Class<A> type) {
            return null;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Reference that && that.id == id;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(id);
        }

        @Override
        public String toString() {
            return "Reference[id=" + id + ", ranking=" + ranking + "]";
        }
    }
}
