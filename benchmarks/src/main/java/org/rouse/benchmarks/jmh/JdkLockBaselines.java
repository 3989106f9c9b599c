package org.rouse.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one uncontended lock + unlock with the JDK's own locks: the floor every Rouse lock strategy is compared
 * against; {@link LockStrategyCosts} measures the Rouse strategies and is run together with this class.
 *
 * <p>Each benchmark acquires, increments a counter inside the critical section (so the section is never empty) and
 * releases, on one thread. Run with:
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar JdkLockBaselines
 * java -jar benchmarks/target/benchmarks.jar JdkLockBaselines -f 1 -wi 2 -i 3   # shorter
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(2)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class JdkLockBaselines {

    private final ReentrantLock nonFair = new ReentrantLock(false);
    private final ReentrantLock fair = new ReentrantLock(true);
    private final Object monitor = new Object();
    private final StampedLock stamped = new StampedLock();

    /** Incremented inside each critical section; read by JMH through the return value. */
    private long counter;

    @Benchmark
    public long reentrantLockNonFair() {
        nonFair.lock();
        try {
            return ++counter;
        } finally {
            nonFair.unlock();
        }
    }

    @Benchmark
    public long reentrantLockFair() {
        fair.lock();
        try {
            return ++counter;
        } finally {
            fair.unlock();
        }
    }

    @Benchmark
    public long synchronizedBlock() {
        synchronized (monitor) {
            return ++counter;
        }
    }

    @Benchmark
    public long stampedLockWrite() {
        long stamp = stamped.writeLock();
        try {
            return ++counter;
        } finally {
            stamped.unlockWrite(stamp);
        }
    }
}
