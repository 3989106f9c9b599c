package org.rouse.lock.internal;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * The Lincheck bounded model check every read-write primitive passes: a writer updates two fields one after the other,
 * non-atomically, under the exclusive lock; a reader reads both under the shared lock and returns -1 if they differ (a
 * writer overlapping it), which the sequential specification never returns; a downgrading writer reads under the
 * shared hold it downgraded to. Every interleaving of small scenarios must be linearizable against a plain counter, so
 * a reader overlapping a writer, two writers together, a lost update or a lost wake-up (a deadlock) fails it. A
 * subclass names the primitive under test.
 */
public abstract class ReadWriteLincheckModel {

    private final ReadWritePrimitive lock = newLock();
    private int first;
    private int second;

    /** The primitive under test; called once per scenario, from the constructor. */
    protected abstract ReadWritePrimitive newLock();

    @Operation
    public int increment() {
        lock.lock();
        try {
            first = first + 1;
            second = second + 1;
            return second;
        } finally {
            lock.unlock();
        }
    }

    @Operation
    public int get() {
        lock.lockShared();
        try {
            int a = first;
            int b = second;
            return a == b ? a : -1;
        } finally {
            lock.unlockShared();
        }
    }

    @Operation
    public int incrementThenGet() {
        lock.lock();
        first = first + 1;
        second = second + 1;
        lock.downgrade();
        try {
            int a = first;
            int b = second;
            return a == b ? a : -1;
        } finally {
            lock.unlockShared();
        }
    }

    @Test
    @Timeout(120)
    void linearizable() {
        ModelCheckingOptions options = new ModelCheckingOptions()
                .iterations(6)
                .invocationsPerIteration(50)
                .threads(3)
                .actorsPerThread(2)
                .sequentialSpecification(Counter.class);
        LinChecker.check(getClass(), options);
    }

    /** The sequential specification. */
    public static final class Counter {
        private int value;

        public int increment() {
            return ++value;
        }

        public int get() {
            return value;
        }

        public int incrementThenGet() {
            return ++value;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Counter counter && counter.value == value;
        }

        @Override
        public int hashCode() {
            return value;
        }
    }
}
