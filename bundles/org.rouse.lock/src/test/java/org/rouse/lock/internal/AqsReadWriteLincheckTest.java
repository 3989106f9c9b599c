package org.rouse.lock.internal;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.spi.AqsReadWrite;

/**
 * Lincheck bounded model check of the {@code jdk} read-write primitive, {@link AqsReadWrite}, with the operations of
 * {@link AdaptiveReadWriteLincheckTest}: a writer updates two fields one after the other under the exclusive lock, a
 * reader returns -1 if it sees them differ (a writer overlapping it), a downgrading writer reads under the shared
 * hold it downgraded to. Every interleaving of small scenarios must be linearizable against a plain counter, so a
 * reader overlapping a writer, two writers together, a lost update or a lost wake-up (a deadlock between the
 * readers' rule for a writer waiting at the head of the queue and the AQS queue itself) fails it.
 */
public class AqsReadWriteLincheckTest {

    private final AqsReadWrite lock = new AqsReadWrite("jdk");
    private int first;
    private int second;

    public AqsReadWriteLincheckTest() {}

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
                .sequentialSpecification(AdaptiveReadWriteLincheckTest.Counter.class);
        LinChecker.check(getClass(), options);
    }
}
