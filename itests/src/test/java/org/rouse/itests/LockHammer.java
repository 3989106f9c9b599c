package org.rouse.itests;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Threads taking one lock in a loop and checking mutual exclusion (a counter of threads inside the critical section),
 * or one read-write lock (no writer together with anyone), for tests that swap the lock's provider under contention.
 *
 * <pre>{@code
 * LockHammer hammer = LockHammer.start(lock, 16, "it");
 * try { ... swap ... } finally { hammer.stop(); }
 * assertEquals(0, hammer.violations());
 * }</pre>
 */
final class LockHammer {

    private final AtomicInteger inside = new AtomicInteger();
    /** Writers inside (read-write hammers only). */
    private final AtomicInteger writers = new AtomicInteger();

    private final AtomicInteger violations = new AtomicInteger();
    private final AtomicLong acquisitions = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    /** Nanoseconds each thread parks after every 64 acquisitions; 0 hammers flat out. */
    private final long pauseNanos;

    private LockHammer(long pauseNanos) {
        this.pauseNanos = pauseNanos;
    }

    /** Starts {@code count} threads named {@code name-i} hammering {@code lock}. */
    static LockHammer start(Lock lock, int count, String name) {
        return start(lock, count, name, 0);
    }

    /**
     * Starts {@code count} threads that park {@code pauseNanos} after every 64 acquisitions, so the lock is contended
     * without taking every core from the rest of a test's load.
     */
    static LockHammer start(Lock lock, int count, String name, long pauseNanos) {
        LockHammer hammer = new LockHammer(pauseNanos);
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> hammer.hammer(lock), name + "-" + i);
            thread.start();
            hammer.threads.add(thread);
        }
        return hammer;
    }

    /**
     * Starts {@code count} threads taking {@code lock}'s read lock nine times in ten and its write lock once; a
     * violation is a writer inside together with anyone.
     */
    static LockHammer startReadWrite(ReadWriteLock lock, int count, String name) {
        LockHammer hammer = new LockHammer(0);
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> hammer.hammerReadWrite(lock), name + "-" + i);
            thread.start();
            hammer.threads.add(thread);
        }
        return hammer;
    }

    private void hammerReadWrite(ReadWriteLock lock) {
        long done = 0;
        while (running.get()) {
            if (++done % 10 == 0) {
                lock.writeLock().lock();
                try {
                    if (writers.incrementAndGet() != 1 || inside.get() != 0) {
                        violations.incrementAndGet();
                    }
                    acquisitions.incrementAndGet();
                    writers.decrementAndGet();
                } finally {
                    lock.writeLock().unlock();
                }
            } else {
                lock.readLock().lock();
                try {
                    inside.incrementAndGet();
                    if (writers.get() != 0) {
                        violations.incrementAndGet();
                    }
                    acquisitions.incrementAndGet();
                    inside.decrementAndGet();
                } finally {
                    lock.readLock().unlock();
                }
            }
        }
    }

    private void hammer(Lock lock) {
        long done = 0;
        while (running.get()) {
            if (pauseNanos > 0 && (++done & 63) == 0) {
                LockSupport.parkNanos(pauseNanos);
            }
            lock.lock();
            try {
                if (inside.incrementAndGet() != 1) {
                    violations.incrementAndGet();
                }
                acquisitions.incrementAndGet();
                inside.decrementAndGet();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Acquisitions so far. */
    long acquisitions() {
        return acquisitions.get();
    }

    /** Times two threads were inside the critical section at once. */
    int violations() {
        return violations.get();
    }

    /** Stops the threads and waits for them. */
    void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
    }
}
