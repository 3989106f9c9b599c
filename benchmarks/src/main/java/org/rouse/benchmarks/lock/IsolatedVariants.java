package org.rouse.benchmarks.lock;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import org.rouse.api.internal.lock.LockFacade;
import org.rouse.benchmarks.scenario.IsolatedClasses;
import org.rouse.benchmarks.scenario.Variant;
import org.rouse.lock.internal.StrategyLockEngine;

/**
 * Makes each lock variant from its own copy of the benchmark's and Rouse's lock classes ({@link IsolatedClasses}), so
 * that no variant runs code the JIT compiled for another variant's lock: the benchmark loop, the guard and the Rouse
 * facade are profiled per variant, as in a process that runs only that lock.
 *
 * <pre>{@code
 * Variant adaptive = IsolatedVariants.contention(0, 16, false); // Guard.nth(0), 16 threads, no work
 * }</pre>
 */
public final class IsolatedVariants {

    private IsolatedVariants() {}

    /** Variant {@code guardIndex} ({@link Guard#nth}) of a lock-contention scenario, made in its own class loader. */
    public static Variant contention(int guardIndex, int threads, boolean work) {
        return isolated("newContentionVariant", guardIndex, threads, work);
    }

    /** Read-write variant {@code index} (see {@link #newReadWriteVariant}), made in its own class loader. */
    public static Variant readWrite(int index, int writePercent) {
        return isolated("newReadWriteVariant", index, writePercent);
    }

    /**
     * Makes the variant in whichever loader loaded this class: the isolated copy calls it by reflection
     * ({@link IsolatedClasses#call}), which needs it public.
     */
    public static Variant newContentionVariant(int guardIndex, int threads, boolean work) {
        return new ContentionVariant(Guard.nth(guardIndex), threads, work);
    }

    /** How many read-write variants there are. */
    static final int READ_WRITE_COUNT = ReadWriteLocks.KEYS.size();

    /**
     * Makes read-write variant {@code index} in whichever loader loaded this class (public for the same reason as
     * {@link #newContentionVariant}): {@code adaptive} through the Rouse front, then its primitive alone
     * ({@link PrimitiveReadWriteLock}: the facade's calls into it without the facade's own work), the same two for
     * {@code jdk}, a raw {@link ReentrantReadWriteLock} (the baseline), {@link StampedLock#asReadWriteLock()}. The
     * pairs put the facade's cost on the read path in the same run as the locks it is compared with.
     */
    public static Variant newReadWriteVariant(int index, int writePercent) {
        if (index < 0 || index >= READ_WRITE_COUNT) {
            throw new IllegalArgumentException("read-write variant 0.." + (READ_WRITE_COUNT - 1) + ": " + index);
        }
        String key = ReadWriteLocks.KEYS.get(index);
        return new ReadMostlyVariant(ReadWriteLocks.rowName(key), ReadWriteLocks.named(key), writePercent);
    }

    private static Variant isolated(String factory, Object... args) {
        IsolatedClasses loader = IsolatedClasses.of(
                factory + Arrays.toString(args),
                List.of(IsolatedVariants.class, LockFacade.class, StrategyLockEngine.class),
                "org.rouse.benchmarks.lock.",
                "org.rouse.api.",
                "org.rouse.lock.");
        return loader.call(Variant.class, IsolatedVariants.class.getName(), factory, args);
    }
}
