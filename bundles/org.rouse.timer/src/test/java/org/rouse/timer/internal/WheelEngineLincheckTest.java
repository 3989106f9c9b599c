package org.rouse.timer.internal;

import java.util.ArrayList;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck: the wheel engine's {@code arm}, {@code disarm}, {@code drain} and {@code armedCount} are linearizable
 * against a sequential model, with the real dispatcher thread running. Each arm uses a new entry; disarm targets the
 * key's latest one; one key's operations are serialized (the front does the same per handle), different keys and
 * drain race freely. Entries are due in an hour so that firing does not interfere (the fire race has its own test).
 */
@Param(name = "key", gen = IntGen.class, conf = "0:4")
public class WheelEngineLincheckTest {

    private final WheelTimerEngine engine = WheelTimerEngine.started(1);
    private final long far = System.nanoTime() + 3_600_000_000_000L;
    /** The entry each key armed last; guarded by the key's monitor in {@link #keys}. */
    private final FixedEntry[] latest = new FixedEntry[5];

    private final Object[] keys = {new Object(), new Object(), new Object(), new Object(), new Object()};

    public WheelEngineLincheckTest() {}

    @AfterEach
    void stop() {
        engine.shutdown();
    }

    /** Lincheck makes one instance per invocation and calls this after it: stop that instance's dispatcher. */
    @Validate
    public void stopEngine() {
        engine.shutdown();
    }

    /** Arms a new entry for the key; its deadline encodes the key. Ops on one key are serialized by its monitor. */
    @Operation
    public boolean arm(@Param(name = "key") int key) {
        synchronized (keys[key]) {
            latest[key] = new FixedEntry(far + key);
            return engine.arm(latest[key]);
        }
    }

    /** Disarms the key's latest entry. */
    @Operation
    public boolean disarm(@Param(name = "key") int key) {
        synchronized (keys[key]) {
            return latest[key] != null && engine.disarm(latest[key]);
        }
    }

    @Operation
    public List<Long> drain() {
        List<Long> drained = new ArrayList<>();
        engine.drain().forEach(entry -> drained.add(entry.deadlineNanos() - far));
        drained.sort(null);
        return drained;
    }

    @Operation
    public int armedCount() {
        return engine.armedCount();
    }

    @Test
    @Timeout(120)
    void linearizable() {
        StressOptions options = new StressOptions()
                .iterations(10)
                .invocationsPerIteration(50)
                .threads(3)
                .actorsPerThread(3)
                .sequentialSpecification(SetSpec.class);
        LinChecker.check(WheelEngineLincheckTest.class, options);
    }

    /** The sequential specification: the armed entries (keys with multiplicity) and each key's latest entry. */
    public static final class SetSpec {
        private final List<long[]> armed = new ArrayList<>();
        private final long[][] latest = new long[5][];

        public boolean arm(int key) {
            latest[key] = new long[] {key};
            armed.add(latest[key]);
            return true;
        }

        public boolean disarm(int key) {
            return latest[key] != null && armed.remove(latest[key]);
        }

        public List<Long> drain() {
            List<Long> keys = new ArrayList<>();
            armed.forEach(entry -> keys.add(entry[0]));
            keys.sort(null);
            armed.clear();
            return keys;
        }

        public int armedCount() {
            return armed.size();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof SetSpec spec && drainView().equals(spec.drainView()) && sameLatest(spec);
        }

        @Override
        public int hashCode() {
            return drainView().hashCode();
        }

        private List<Long> drainView() {
            List<Long> keys = new ArrayList<>();
            armed.forEach(entry -> keys.add(entry[0]));
            keys.sort(null);
            return keys;
        }

        private boolean sameLatest(SetSpec other) {
            for (int i = 0; i < latest.length; i++) {
                boolean mine = latest[i] != null && armed.contains(latest[i]);
                boolean theirs = other.latest[i] != null && other.armed.contains(other.latest[i]);
                if (mine != theirs) {
                    return false;
                }
            }
            return true;
        }
    }
}
