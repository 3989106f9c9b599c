package org.rouse.lock.internal;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck bounded model check of {@code adaptive}: a counter read and written non-atomically under the lock is
 * linearizable against a plain sequential counter, over every interleaving of small scenarios (lost updates, two
 * holders, or a lost wake-up, which shows as a deadlock, fail it). Spinning is off and the fairness bound tiny, so
 * the interleavings cover queueing, parking, waking and the timer's hand-off.
 */
public class AdaptiveMutexLincheckTest {

    private final AdaptiveMutex lock = new AdaptiveMutex(() -> new AdaptiveTuning(1, 1L));
    private int counter;

    public AdaptiveMutexLincheckTest() {}

    @Operation
    public int increment() {
        lock.lock();
        try {
            int v = counter;
            counter = v + 1;
            return v + 1;
        } finally {
            lock.unlock();
        }
    }

    @Operation
    public int get() {
        lock.lock();
        try {
            return counter;
        } finally {
            lock.unlock();
        }
    }

    @Test
    @Timeout(120)
    void linearizable() {
        ModelCheckingOptions options = new ModelCheckingOptions()
                .iterations(8)
                .invocationsPerIteration(100)
                .threads(3)
                .actorsPerThread(2)
                .sequentialSpecification(Counter.class);
        LinChecker.check(AdaptiveMutexLincheckTest.class, options);
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
