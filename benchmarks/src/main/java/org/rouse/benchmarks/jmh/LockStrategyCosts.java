package org.rouse.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
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
import org.rouse.benchmarks.lock.Guard;

/**
 * One uncontended lock + unlock of a Rouse lock of each strategy, made by the real front over the real engine (the
 * facade with reentrancy, swap check and statistics, over the strategy's primitive), beside a non-fair
 * {@link ReentrantLock} measured in the same fork. Run together with {@link JdkLockBaselines}:
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar 'JdkLockBaselines|LockStrategyCosts'
 * java -jar benchmarks/target/benchmarks.jar 'JdkLockBaselines|LockStrategyCosts' -f 1 -wi 2 -i 3 -r 1s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(2)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LockStrategyCosts {

    @Param({"adaptive", "fair", "jdk", "spin-yield"})
    public String strategy;

    /**
     * Whether locks of every strategy run before the measured one, so that the facade's calls into its primitive see
     * every primitive class (as in the Harness, where all strategies share one JVM) rather than one.
     */
    @Param({"false"})
    public boolean mixed;

    private Lock rouse;
    private final ReentrantLock reentrant = new ReentrantLock(false);

    /** Incremented inside each critical section; returned so JMH keeps it. */
    private long counter;

    @Setup
    public void setUp() {
        if (mixed) {
            for (String other : new String[] {"adaptive", "fair", "jdk", "spin-yield"}) {
                Lock lock = Guard.newRouseLock(other);
                for (int i = 0; i < MIXED_WARM_UP; i++) {
                    lock.lock();
                    counter++;
                    lock.unlock();
                }
            }
        }
        rouse = Guard.newRouseLock(strategy);
    }

    /** Acquisitions per strategy before the measurement when {@link #mixed}: enough for the JIT to profile them. */
    private static final int MIXED_WARM_UP = 200_000;

    @Benchmark
    public long rouseLock() {
        rouse.lock();
        try {
            return ++counter;
        } finally {
            rouse.unlock();
        }
    }

    @Benchmark
    public long reentrantLockSameFork() {
        reentrant.lock();
        try {
            return ++counter;
        } finally {
            reentrant.unlock();
        }
    }
}
