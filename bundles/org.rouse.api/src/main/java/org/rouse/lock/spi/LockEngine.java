package org.rouse.lock.spi;

import java.util.Set;
import org.osgi.annotation.versioning.ConsumerType;

/** Makes lock primitives by strategy name. Implemented by provider bundles; thread-safe. */
@ConsumerType
public interface LockEngine {

    /** A short name for logs and statistics. */
    String name();

    /** The strategy names this engine can make. Never empty. */
    Set<String> strategies();

    /**
     * Returns a new, unlocked primitive of the given strategy.
     *
     * @throws IllegalArgumentException if the engine does not offer {@code strategy}
     */
    LockPrimitive newPrimitive(String strategy);

    /**
     * The strategy names this engine can make read-write primitives of; empty (the default) if it makes none, in
     * which case the front runs read-write locks on a built-in fallback.
     *
     * @since 1.2
     */
    default Set<String> readWriteStrategies() {
        return Set.of();
    }

    /**
     * Returns a new, unlocked read-write primitive of the given strategy.
     *
     * @throws IllegalArgumentException if the engine does not offer {@code strategy} in {@link #readWriteStrategies()}
     * @throws UnsupportedOperationException if the engine makes no read-write primitives (the default)
     * @since 1.2
     */
    default ReadWritePrimitive newReadWritePrimitive(String strategy) {
        throw new UnsupportedOperationException(name() + " makes no read-write primitives");
    }
}
