package org.rouse.benchmarks.lock;

import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.rouse.benchmarks.measure.ContextSwitches;
import org.rouse.benchmarks.measure.ThreadUsage;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.RoundWorkers;
import org.rouse.benchmarks.scenario.Variant;

/**
 * {@value ReadMostly#THREADS} threads reading and writing (5 % or 25 % of the operations) a small map under one
 * read-write lock for a round; a violation counter checks on every operation that no writer is inside together with
 * anyone.
 */
final class ReadMostlyVariant implements Variant {

    static final int MAP_KEYS = 64;

    private final String name;
    private final ReadWriteLock lock;
    /** The share of writes, 5 or 25 %, drawn per operation by a per-thread random number. */
    private final int writePercent;

    private final int threads = ReadMostly.THREADS;
    private final HashMap<Integer, Long> map = new HashMap<>();
    private final long[] ops;
    private final ThreadUsage[] usage;
    private final RoundWorkers workers;
    /** What the driving thread does during a round. */
    private final LongConsumer drive;
    /** The lock's swaps so far, or null when it is never swapped. */
    private final LongSupplier swaps;

    /** Readers inside; atomic, since readers overlap. */
    private final AtomicInteger readersInside = new AtomicInteger();
    /** Writers inside; written under the write lock, read racily by readers (a writer seen is a violation). */
    private volatile int writersInside;
    /** Violations seen; atomic. */
    private final AtomicInteger violations = new AtomicInteger();

    ReadMostlyVariant(String name, ReadWriteLock lock, int writePercent) {
        this(name, lock, writePercent, ReadMostlyVariant::parkUntil, null);
    }

    /**
     * A variant whose driving thread does {@code drive} during each round, e.g. swap the lock's strategy.
     *
     * @param drive called with the round's deadline (System.nanoTime()); returns at it
     * @param swaps the swaps the lock has performed so far, for a per-round count; null when it is never swapped
     */
    ReadMostlyVariant(String name, ReadWriteLock lock, int writePercent, LongConsumer drive, LongSupplier swaps) {
        if (writePercent != 5 && writePercent != 25) {
            throw new IllegalArgumentException("writePercent: 5 or 25, not " + writePercent);
        }
        this.name = name;
        this.lock = lock;
        this.writePercent = writePercent;
        this.ops = new long[threads];
        this.usage = new ThreadUsage[threads];
        for (int k = 0; k < MAP_KEYS; k++) {
            map.put(k, (long) k);
        }
        this.workers = new RoundWorkers("rouse-bench-rw", threads, this::work);
        this.drive = drive;
        this.swaps = swaps;
    }

    private static void parkUntil(long deadline) {
        LockSupport.parkNanos(deadline - System.nanoTime());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return threads + " threads; " + name + "; " + (100 - writePercent) + " % HashMap lookups under the read lock, "
                + writePercent + " % updates under the write lock";
    }

    @Override
    public void open() {
        workers.start();
    }

    private void work(int index) {
        long seed = index * 0x9E3779B97F4A7C15L + 1;
        long sink = 0;
        long done = 0;
        ThreadUsage begin = ThreadUsage.begin();
        while (!workers.stopped()) {
            seed = PrivateWork.steps(seed, PrivateWork.READ_MOSTLY_STEPS);
            int key = keyOf(seed);
            if (isWrite(writePercent, seed)) {
                lock.writeLock().lock();
                try {
                    if (++writersInside != 1 || readersInside.get() != 0) {
                        violations.incrementAndGet();
                    }
                    map.merge(key, 1L, Long::sum);
                    writersInside--;
                } finally {
                    lock.writeLock().unlock();
                }
            } else {
                lock.readLock().lock();
                try {
                    readersInside.incrementAndGet();
                    if (writersInside != 0) {
                        violations.incrementAndGet();
                    }
                    sink += map.get(key);
                    readersInside.decrementAndGet();
                } finally {
                    lock.readLock().unlock();
                }
            }
            done++;
        }
        usage[index] = ThreadUsage.end().minus(begin);
        ops[index] = done + (sink == 42 ? 1 : 0); // keep the reads alive
    }

    /** The key an operation drawn from {@code seed} reads or writes. */
    static int keyOf(long seed) {
        return (int) ((seed >>> 33) % MAP_KEYS);
    }

    /**
     * Whether the operation drawn from {@code seed} is a write, for a share of 5 or 25 %. Each share divides by a
     * constant, as before there were two: a division by a field is a real divide on every operation, which would
     * change the workload rw-read-mostly has always measured.
     */
    static boolean isWrite(int writePercent, long seed) {
        long draw = seed >>> 17;
        return writePercent == 25 ? (draw & 3) == 0 : draw % 20 == 0;
    }

    @Override
    public Measurement runRound(Duration budget) throws Exception {
        int violationsBefore = violations.get();
        long swapsBefore = swaps == null ? 0 : swaps.getAsLong();
        long elapsed = workers.round(drive, budget.toNanos());
        long total = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        ThreadUsage sum = ThreadUsage.ZERO;
        for (int i = 0; i < threads; i++) {
            total += ops[i];
            min = Math.min(min, ops[i]);
            max = Math.max(max, ops[i]);
            sum = sum.plus(usage[i]);
        }
        double n = Math.max(1, total);
        ContextSwitches switches = sum.switches();
        Measurement.Builder measured = Measurement.builder();
        if (swaps != null) {
            measured.put(LockMetrics.SWAPS, swaps.getAsLong() - swapsBefore);
        }
        return measured.put(LockMetrics.THROUGHPUT, total * 1e9 / elapsed)
                .put(Metrics.CPU_PER_OP_US, sum.cpuNanos() / 1_000.0 / n)
                .put(LockMetrics.VOLUNTARY_PER_OP, switches.voluntary() / n)
                .put(LockMetrics.INVOLUNTARY_PER_OP, switches.involuntary() / n)
                .put(LockMetrics.MIN_MAX, max == 0 ? Double.NaN : (double) min / max)
                .put(LockMetrics.VIOLATIONS, violations.get() - violationsBefore)
                .build();
    }

    @Override
    public void close() throws Exception {
        workers.close();
    }
}
