package org.rouse.lock.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import org.rouse.lock.spi.LockPrimitive;

/**
 * Strategy {@code spin-yield}: OpenSIPS's default {@code FAST_LOCK}, kept for comparison. Spins, then calls
 * {@link Thread#yield()} on every further retry, forever; it never parks.
 *
 * <p><b>Unfit when runnable threads outnumber cores</b>: waiters burn CPU and context switches while the holder may
 * not even be running (the OpenSIPS field problem: 16 processes on 2 CPUs). Use it only for very short critical
 * sections with at most one thread per core.
 */
final class SpinYieldMutex implements LockPrimitive {

    /*
     * Implementation notes.
     *
     * Sources. OpenSIPS's get_lock (spin, then yield), the strategy this reproduces for comparison.
     *
     * Algorithm. Test-and-test-and-set on one AtomicBoolean (read until it looks free, then CAS), as OpenSIPS's
     * get_lock: up to spins attempts with Thread.onSpinWait() (the PAUSE hint, OpenSIPS's cpu_relax), then one
     * Thread.yield() per attempt. The spin count is read from the engine's settings at each contended acquisition, so a
     * configuration change reaches live primitives. The interruptible and timed variants check the interrupt status and
     * the deadline on every attempt.
     *
     * Invariants.
     * 1. Release is a volatile store of false, which the facade's swap hand-off relies on.
     *
     * Costs. Waiters burn CPU and context switches while the holder may not even be running; unfit when runnable
     * threads outnumber cores (see the class Javadoc).
     */

    static final String STRATEGY = "spin-yield";

    /** true while held; CAS to acquire, volatile store to release. */
    private final AtomicBoolean held = new AtomicBoolean();
    /** The engine's current {@code spin.yield.spins}. */
    private final IntSupplier spins;

    SpinYieldMutex(IntSupplier spins) {
        this.spins = spins;
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    public void lock() {
        int budget = spins.getAsInt();
        while (!attempt()) {
            budget = backOff(budget);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        int budget = spins.getAsInt();
        for (; ; ) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (attempt()) {
                return;
            }
            budget = backOff(budget);
        }
    }

    @Override
    public boolean tryLock() {
        return attempt();
    }

    @Override
    public boolean tryLockNanos(long nanos) throws InterruptedException {
        long start = System.nanoTime();
        int budget = spins.getAsInt();
        for (; ; ) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (attempt()) {
                return true;
            }
            if (System.nanoTime() - start >= nanos) {
                return false;
            }
            budget = backOff(budget);
        }
    }

    @Override
    public void unlock() {
        held.set(false);
    }

    @Override
    public boolean isLocked() {
        return held.get();
    }

    /** Test, then test-and-set. */
    private boolean attempt() {
        return !held.get() && held.compareAndSet(false, true);
    }

    /** Spins while budget remains, then yields; returns the budget left. */
    private static int backOff(int budget) {
        if (budget > 0) {
            Thread.onSpinWait();
            return budget - 1;
        }
        Thread.yield();
        return 0;
    }
}
