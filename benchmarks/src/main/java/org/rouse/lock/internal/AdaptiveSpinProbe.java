package org.rouse.lock.internal;

import java.util.HashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.rouse.api.internal.lock.LockFrontCore;

/**
 * Side by side in one JVM, rounds interleaved: {@code adaptive} locks whose engine has different
 * {@code adaptive.spin.max} values against a non-fair {@link ReentrantLock}, each through the real front as a
 * consumer bundle gets it. The harness builds its locks with the engine's default tuning, so this probe is how the
 * default was chosen (docs/performance.md, 2026-12-02). Critical section: a counter and a 64-key HashMap update; with
 * {@code -Dwork=true} ~100 arithmetic steps between acquisitions. One line per round: acquisitions per second and the
 * ratio against ReentrantLock in that round.
 *
 * <pre>
 * java -Dthreads=2 -Dwork=true -Dspins=5,100 -Drounds=6 \
 *     -cp benchmarks/target/benchmarks.jar org.rouse.lock.internal.AdaptiveAdaptiveSpinProbe
 * </pre>
 */
public final class AdaptiveSpinProbe {

    private AdaptiveSpinProbe() {}

    /** An adaptive lock from an engine configured with {@code adaptive.spin.max = maxSpins}. */
    static Lock rouse(int maxSpins) {
        StrategyLockEngine engine = new StrategyLockEngine();
        if (!engine.configure(
                StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS, maxSpins, AdaptiveTuning.DEFAULT_FAIRNESS_BOUND_MICROS)) {
            throw new IllegalArgumentException("adaptive.spin.max out of range: " + maxSpins);
        }
        LockFrontCore core = new LockFrontCore();
        core.swapTo(engine);
        core.configure("adaptive", new String[0]);
        return core.newView("spin-probe").newLock();
    }

    static volatile long sink;

    static double run(Lock lock, int threads, boolean work, long millis) throws Exception {
        HashMap<Integer, Integer> map = new HashMap<>();
        long[] counter = new long[1];
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder ops = new LongAdder();
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                long n = 0, x = id + 1;
                while (!stop.get()) {
                    lock.lock();
                    try {
                        counter[0]++;
                        map.put((int) (counter[0] & 63), id);
                    } finally {
                        lock.unlock();
                    }
                    n++;
                    if (work) {
                        for (int i = 0; i < 100; i++) x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                }
                sink += x;
                ops.add(n);
            });
        }
        for (Thread t : ts) t.start();
        Thread.sleep(millis); // fixed-length round, not waiting for a result
        stop.set(true);
        for (Thread t : ts) t.join();
        return ops.sum() * 1000.0 / millis;
    }

    public static void main(String[] a) throws Exception {
        int threads = Integer.getInteger("threads", 2);
        boolean work = Boolean.parseBoolean(System.getProperty("work", "true"));
        int[] spins = java.util.Arrays.stream(
                        System.getProperty("spins", "0,10,30,100").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        Lock[] locks = new Lock[spins.length];
        for (int i = 0; i < spins.length; i++) locks[i] = rouse(spins[i]);
        ReentrantLock rl = new ReentrantLock();
        for (int round = 0; round < Integer.getInteger("rounds", 4); round++) {
            StringBuilder sb = new StringBuilder("round " + round + ":");
            double base = run(rl, threads, work, 1000);
            sb.append(String.format(java.util.Locale.ROOT, " RL %.2fM", base / 1e6));
            for (int i = 0; i < spins.length; i++) {
                double r = run(locks[i], threads, work, 1000);
                sb.append(String.format(
                        java.util.Locale.ROOT, " | spin.max %d %.2fM (%.2fx)", spins[i], r / 1e6, r / base));
            }
            System.out.println(sb);
        }
    }
}
