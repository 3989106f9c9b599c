package org.rouse.lock.internal;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rouse.lock.spi.AqsReadWrite;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * Read-write strategy {@code jdk}: the JDK's AQS as a non-fair read-write lock ({@link AqsReadWrite}), acquired,
 * queued, parked and woken as a non-fair {@link ReentrantReadWriteLock}, minus the owner and per-thread read hold
 * counts the facade keeps already. The baseline the {@code adaptive} read-write strategy is compared to. The facade
 * calls an {@link AqsReadWrite} without interface dispatch.
 *
 * <pre>{@code
 * ReadWritePrimitive rw = JdkReadWrite.create();
 * rw.lockShared();
 * rw.unlockShared();
 * }</pre>
 */
final class JdkReadWrite {

    static final String STRATEGY = "jdk";

    private JdkReadWrite() {}

    /** A new, free {@code jdk} read-write primitive. */
    static ReadWritePrimitive create() {
        return new AqsReadWrite(STRATEGY);
    }
}
