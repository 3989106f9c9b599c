package org.rouse.benchmarks.lock;

import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.SwappableReadWriteLock;
import org.rouse.lock.internal.StrategyLockEngine;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * The read-write locks the benchmarks compare, by key: each Rouse strategy through the real front and its primitive
 * alone, {@link ReentrantReadWriteLock} (the baseline) and {@link StampedLock#asReadWriteLock()}.
 *
 * <pre>{@code
 * ReadWriteLock facade = ReadWriteLocks.named("rouse-adaptive");
 * ReadWriteLock bare = ReadWriteLocks.named("adaptive-alone");
 * }</pre>
 */
public final class ReadWriteLocks {

    /** Every key, in the order of the harness's rows. */
    public static final List<String> KEYS =
            List.of("rouse-adaptive", "adaptive-alone", "rouse-jdk", "jdk-alone", "rrwl", "stamped");

    private ReadWriteLocks() {}

    /** A new lock of {@code key} (one of {@link #KEYS}). */
    public static ReadWriteLock named(String key) {
        return switch (key) {
            case "rouse-adaptive" -> throughFront("adaptive");
            case "adaptive-alone" -> primitiveAlone("adaptive");
            case "rouse-jdk" -> throughFront("jdk");
            case "jdk-alone" -> primitiveAlone("jdk");
            case "rrwl" -> new ReentrantReadWriteLock(false);
            case "stamped" -> new StampedLock().asReadWriteLock();
            default -> throw new IllegalArgumentException("read-write lock " + KEYS + ": " + key);
        };
    }

    /** The harness's row name for the lock of {@code key} (one of {@link #KEYS}). */
    static String rowName(String key) {
        return switch (key) {
            case "rouse-adaptive" -> "rouse adaptive (rw)";
            case "adaptive-alone" -> "adaptive primitive alone (rw)";
            case "rouse-jdk" -> "rouse jdk (rw)";
            case "jdk-alone" -> "jdk primitive alone (rw)";
            case "rrwl" -> ReadMostly.BASELINE;
            case "stamped" -> "StampedLock.asReadWriteLock";
            default -> throw new IllegalArgumentException("read-write lock " + KEYS + ": " + key);
        };
    }

    /** A Rouse read-write lock of {@code strategy}, made through the real front over the real engine. */
    static ReadWriteLock throughFront(String strategy) {
        LockFrontCore core = new LockFrontCore();
        core.swapTo(new StrategyLockEngine(true)); // adaptive.read.write on, so both forms can be measured
        if (!core.configure(strategy, new String[0])) {
            throw new IllegalArgumentException("unknown strategy " + strategy);
        }
        ReadWriteLock lock = core.newView("benchmarks").readWriteLock("read-mostly");
        String actual = ((SwappableReadWriteLock) lock).strategy();
        if (!actual.equals(strategy)) {
            throw new IllegalStateException("asked for " + strategy + ", got " + actual);
        }
        return lock;
    }

    /** The primitive of {@code strategy} from the engine the front uses, without the facade around it. */
    static ReadWriteLock primitiveAlone(String strategy) {
        ReadWritePrimitive primitive = new StrategyLockEngine(true).newReadWritePrimitive(strategy);
        if (!primitive.strategy().equals(strategy)) {
            throw new IllegalStateException("asked for " + strategy + ", got " + primitive.strategy());
        }
        return new PrimitiveReadWriteLock(primitive);
    }
}
