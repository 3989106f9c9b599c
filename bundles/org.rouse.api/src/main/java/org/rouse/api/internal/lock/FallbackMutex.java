package org.rouse.api.internal.lock;

import org.rouse.lock.spi.AqsMutex;
import org.rouse.lock.spi.LockPrimitive;

/**
 * The primitive every facade uses while no lock engine is registered: a non-reentrant, non-fair AQS mutex
 * ({@link AqsMutex}) reporting strategy {@value #STRATEGY}, so that a lock can always be taken and no facade keeps a
 * class loader of an engine that went away.
 *
 * <pre>{@code
 * LockFacade lock = new LockFacade("cache", "cache", FallbackMutex.create());
 * }</pre>
 */
final class FallbackMutex {

    /** The strategy name facades report while they use this primitive. */
    static final String STRATEGY = "fallback";

    private FallbackMutex() {}

    /** A new, free fallback primitive. */
    static LockPrimitive create() {
        return new AqsMutex(STRATEGY);
    }
}
