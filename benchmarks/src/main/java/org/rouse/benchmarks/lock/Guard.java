package org.rouse.benchmarks.lock;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.internal.StrategyLockEngine;
import org.rouse.lock.spi.LockPrimitive;

/**
 * One way of guarding a critical section, as the lock benchmarks compare them: a Rouse lock strategy, a JDK
 * {@link ReentrantLock} or a {@code synchronized} block.
 *
 * <pre>{@code
 * Guard guard = Guard.rouse("adaptive");
 * guard.run(section);
 * }</pre>
 */
public abstract class Guard {

    private final String name;

    private Guard(String name) {
        this.name = name;
    }

    /** The row label. */
    public final String name() {
        return name;
    }

    /** Runs {@code section} while holding the guard. */
    public abstract void run(Runnable section);

    /** The {@code adaptive.spin.max} of the {@link #nth} row beside the default (the cap until 2026-12-02). */
    static final int LONGER_SPIN_MAX = 100;

    /** The {@link #nth} index of the default strategy, {@code adaptive}. */
    static final int ADAPTIVE = 0;

    /** The {@link #nth} index of non-fair ReentrantLock, the lock scenarios' baseline. */
    static final int REENTRANT_LOCK = 5;

    /** How many guards {@code lock-contention*} compares ({@link #nth} 0 to {@code COUNT - 1}). */
    static final int COUNT = 8;

    /** The {@link #nth} guard outside {@link #COUNT}: {@code adaptive} with its fairness timer at the longest bound. */
    static final int FAIRNESS_AT_MAX_BOUND = COUNT;

    /** The {@link #nth} index of the {@code jdk} strategy through the front. */
    static final int JDK = 3;

    /** The {@link #nth} guard outside {@link #COUNT}: the {@code adaptive} primitive alone, without the facade. */
    static final int ADAPTIVE_PRIMITIVE_ALONE = COUNT + 1;

    /** The {@link #nth} guard outside {@link #COUNT}: the {@code jdk} primitive alone, without the facade. */
    static final int JDK_PRIMITIVE_ALONE = COUNT + 2;

    /**
     * Guard {@code index} of those the lock scenarios compare, in row order: the four Rouse strategies,
     * {@code adaptive} once more with a longer spin cap, ReentrantLock non-fair and fair, synchronized; then
     * ({@link #FAIRNESS_AT_MAX_BOUND}) {@code adaptive} with a fairness hand-off at most every 10 s, and the
     * {@code adaptive} and {@code jdk} primitives alone ({@link #primitiveAlone}). Each call makes a new lock.
     */
    public static Guard nth(int index) {
        return switch (index) {
            case ADAPTIVE -> rouse("adaptive");
            case 1 -> rouseAdaptive(LONGER_SPIN_MAX);
            case 2 -> rouse("fair");
            case JDK -> rouse("jdk");
            case 4 -> rouse("spin-yield");
            case REENTRANT_LOCK -> lock("ReentrantLock", new ReentrantLock(false));
            case 6 -> lock("ReentrantLock(fair)", new ReentrantLock(true));
            case 7 -> monitor();
            case FAIRNESS_AT_MAX_BOUND ->
                lock(
                        "rouse adaptive, fairness bound 10 s",
                        newRouseLock(
                                StrategyLockEngine.withAdaptiveFairnessBound(
                                        StrategyLockEngine.MAX_FAIRNESS_BOUND_MICROS),
                                "adaptive"));
            case ADAPTIVE_PRIMITIVE_ALONE -> primitiveAlone("adaptive");
            case JDK_PRIMITIVE_ALONE -> primitiveAlone("jdk");
            default -> throw new IllegalArgumentException("guard index 0.." + JDK_PRIMITIVE_ALONE + ": " + index);
        };
    }

    /** A Rouse lock of {@code strategy}, made through the real front over the real engine. */
    public static Guard rouse(String strategy) {
        return lock("rouse " + strategy, newRouseLock(strategy));
    }

    /** A Rouse {@code adaptive} lock from an engine configured with {@code adaptive.spin.max = spinMax}. */
    public static Guard rouseAdaptive(int spinMax) {
        return lock(
                "rouse adaptive, spin.max " + spinMax,
                newRouseLock(StrategyLockEngine.withAdaptiveSpinMax(spinMax), "adaptive"));
    }

    /** A Rouse lock made by the front with the real engine (as a consumer bundle gets it). */
    public static Lock newRouseLock(String strategy) {
        return newRouseLock(new StrategyLockEngine(), strategy);
    }

    private static Lock newRouseLock(StrategyLockEngine engine, String strategy) {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(engine);
        if (!core.configure(strategy, new String[0])) {
            throw new IllegalArgumentException("unknown strategy " + strategy);
        }
        return core.newView("benchmarks").newLock();
    }

    /**
     * The primitive of {@code strategy} from the engine the front uses, without the facade: the calls the facade
     * makes into it (a non-waiting attempt, then the waiting one, and the release), without its reentrancy, swap
     * check and counters. Not reentrant.
     */
    public static Guard primitiveAlone(String strategy) {
        LockPrimitive primitive = new StrategyLockEngine().newPrimitive(strategy);
        if (!primitive.strategy().equals(strategy)) {
            throw new IllegalStateException("asked for " + strategy + ", got " + primitive.strategy());
        }
        return new Guard(strategy + " primitive alone") {
            @Override
            public void run(Runnable section) {
                if (!primitive.tryLock()) {
                    primitive.lock();
                }
                try {
                    section.run();
                } finally {
                    primitive.unlock();
                }
            }
        };
    }

    /** Any {@link Lock}. */
    public static Guard lock(String name, Lock lock) {
        return new Guard(name) {
            @Override
            public void run(Runnable section) {
                lock.lock();
                try {
                    section.run();
                } finally {
                    lock.unlock();
                }
            }
        };
    }

    /** A {@code synchronized} block on a private monitor. */
    public static Guard monitor() {
        Object monitor = new Object();
        return new Guard("synchronized") {
            @Override
            public void run(Runnable section) {
                synchronized (monitor) {
                    section.run();
                }
            }
        };
    }
}
