package org.rouse.lock.spi;

import java.util.Objects;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The JDK's {@link AbstractQueuedSynchronizer} as a non-reentrant, non-fair mutex: acquired and released exactly as a
 * non-fair {@link ReentrantLock} is (one CAS when free; otherwise the same AQS queue, spin, park and barging), without
 * the owner thread and hold count a {@code ReentrantLock} keeps, which the front's facade keeps already.
 *
 * <p>The front's facades recognise this class and call it directly rather than through the {@link LockPrimitive}
 * interface, so its acquisitions stay inlined however many other primitive classes the same facade code calls. Since
 * 1.7 it is the AQS itself rather than a wrapper around one, so a facade reaches the lock word with one load fewer;
 * its public AQS methods are its implementation, and callers use the {@link LockPrimitive} ones. An engine that
 * offers the JDK's lock as a strategy hands out instances of it:
 *
 * <pre>{@code
 * public LockPrimitive newPrimitive(String strategy) {
 *     return "jdk".equals(strategy) ? new AqsMutex("jdk") : ...;
 * }
 * }</pre>
 *
 * @since 1.4
 */
public final class AqsMutex extends AbstractQueuedSynchronizer implements LockPrimitive {

    /*
     * Implementation notes.
     *
     * Sources. ReentrantLock's NonfairSync (JDK 17): tryAcquire is "state == 0 and CAS 0 -> 1", release a volatile
     * store of 0 followed by AbstractQueuedSynchronizer.signalNext, through the same AQS code.
     *
     * Invariants. State 0 = free, 1 = held. The facade never enters a primitive twice from one thread and releases it
     * only from the thread that acquired it (the LockPrimitive contract), so no owner is recorded or checked. Every
     * release ends in the volatile store of the state, the release ordering the facade's swap protocol relies on.
     *
     * Costs. An uncontended lock + unlock is one CAS and one volatile store, plus AQS's read of its queue head; the
     * class is final so that the facade's type test is one class-pointer comparison. It extends the AQS rather than
     * holding one: the acquisition's chain of dependent loads is then facade -> current -> state, as short as
     * ReentrantLock's lock -> sync -> state (JMH LockStrategyCosts, 2-core EPYC: `jdk` through the facade 6.9 ns with
     * a separate Sync object, 5.8 ns without, ReentrantLock 5.2 ns).
     */

    private static final long serialVersionUID = 1L;

    private final String strategy;

    /**
     * Creates a free mutex.
     *
     * @param strategy the strategy name it reports, e.g. {@code "jdk"}
     */
    public AqsMutex(String strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
    }

    @Override
    public String strategy() {
        return strategy;
    }

    @Override
    public void lock() {
        acquire(1);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireInterruptibly(1);
    }

    @Override
    public boolean tryLock() {
        return tryAcquire(1);
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        return tryAcquireNanos(1, nanos);
    }

    @Override
    public void unlock() {
        release(1);
    }

    @Override
    public boolean isLocked() {
        return getState() != 0;
    }

    @Override
    protected boolean tryAcquire(int ignored) {
        return getState() == 0 && compareAndSetState(0, 1);
    }

    @Override
    protected boolean tryRelease(int ignored) {
        setState(0);
        return true;
    }
}
