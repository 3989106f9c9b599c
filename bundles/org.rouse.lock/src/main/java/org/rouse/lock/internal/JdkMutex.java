package org.rouse.lock.internal;

import java.util.concurrent.locks.ReentrantLock;
import org.rouse.lock.spi.AqsMutex;
import org.rouse.lock.spi.LockPrimitive;

/**
 * Strategy {@code jdk}: the JDK's AQS as a non-fair mutex ({@link AqsMutex}), acquired, queued, parked and barged
 * exactly as a non-fair {@link ReentrantLock}, minus the owner and hold count the facade keeps already. A spin-free,
 * park-based, barging lock: the baseline every other strategy is compared to. The facade calls an {@link AqsMutex}
 * without interface dispatch.
 *
 * <pre>{@code
 * LockPrimitive mutex = JdkMutex.create();
 * }</pre>
 */
final class JdkMutex {

    static final String STRATEGY = "jdk";

    private JdkMutex() {}

    /** A new, free {@code jdk} primitive. */
    static LockPrimitive create() {
        return new AqsMutex(STRATEGY);
    }
}
