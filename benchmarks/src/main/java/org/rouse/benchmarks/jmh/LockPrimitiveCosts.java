package org.rouse.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.rouse.lock.internal.StrategyLockEngine;
import org.rouse.lock.spi.AqsMutex;
import org.rouse.lock.spi.BargingMutex;

/**
 * One uncontended lock + unlock of a strategy's primitive called directly, without the facade, beside a non-fair
 * {@link ReentrantLock} in the same run: what the lock word costs before the facade adds its own. The facade's share
 * is {@link LockStrategyCosts} less this.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar 'LockPrimitiveCosts|LockStrategyCosts' -f 3 -wi 2 -i 3 -r 1s -w 1s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(3)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class LockPrimitiveCosts {

    private final ReentrantLock reentrant = new ReentrantLock(false);
    /** `jdk`: the AQS a non-fair ReentrantLock runs, as the engine makes it. */
    private AqsMutex jdk;
    /** `adaptive`, the default: its fast paths are BargingMutex's, as the facade calls them. */
    private BargingMutex adaptive;

    /** Incremented inside each critical section; returned so JMH keeps it. */
    private long counter;

    @Setup
    public void setUp() {
        StrategyLockEngine engine = new StrategyLockEngine();
        jdk = (AqsMutex) engine.newPrimitive("jdk");
        adaptive = (BargingMutex) engine.newPrimitive("adaptive");
    }

    @Benchmark
    public long reentrantLock() {
        reentrant.lock();
        try {
            return ++counter;
        } finally {
            reentrant.unlock();
        }
    }

    @Benchmark
    public long jdkPrimitive() {
        jdk.lock();
        try {
            return ++counter;
        } finally {
            jdk.unlock();
        }
    }

    @Benchmark
    public long adaptivePrimitive() {
        adaptive.lock();
        try {
            return ++counter;
        } finally {
            adaptive.unlock();
        }
    }
}
