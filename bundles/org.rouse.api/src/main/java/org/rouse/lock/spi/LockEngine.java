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
}
