package org.rouse.api.internal.lock;

import org.rouse.lock.spi.AqsReadWrite;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * The read-write primitive every read-write facade uses while the active engine offers none (no engine, or one
 * that predates read-write primitives): a non-reentrant, non-fair AQS read-write lock ({@link AqsReadWrite})
 * reporting strategy {@value FallbackMutex#STRATEGY}, so that no facade keeps a class loader of an engine that went
 * away.
 *
 * <pre>{@code
 * ReadWriteFacade lock = new ReadWriteFacade("routes", "routes", FallbackReadWrite.create());
 * }</pre>
 */
final class FallbackReadWrite {

    private FallbackReadWrite() {}

    /** A new, free fallback read-write primitive. */
    static ReadWritePrimitive create() {
        return new AqsReadWrite(FallbackMutex.STRATEGY);
    }
}
