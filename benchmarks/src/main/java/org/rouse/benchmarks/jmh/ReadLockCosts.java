package org.rouse.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.rouse.benchmarks.lock.ReadWriteLocks;

/**
 * One read lock + unlock of a read-write lock that no writer takes: Rouse's {@code adaptive} and {@code jdk} through
 * the real front (the facade's read-record lookup, swap check and counters) and each strategy's primitive alone,
 * beside {@link ReentrantReadWriteLock} (the baseline) and {@link StampedLock#asReadWriteLock()}, one lock per fork.
 * With {@code -t 2} two threads read the same lock at once, so the facade's per-thread read records are looked up
 * by two threads, as under {@code rw-read-mostly}.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ReadLockCosts
 * java -jar benchmarks/target/benchmarks.jar ReadLockCosts -t 2
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(3)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ReadLockCosts {

    @Param({"rouse-adaptive", "adaptive-alone", "rouse-jdk", "jdk-alone", "rrwl", "stamped"})
    public String lock;

    private Lock read;

    @Setup
    public void setUp() {
        ReadWriteLock rw = ReadWriteLocks.named(lock);
        read = rw.readLock();
    }

    @Benchmark
    public void readLockUnlock() {
        read.lock();
        read.unlock();
    }
}
