package org.rouse.itests;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/**
 * Threads taking one lock in a loop and checking mutual exclusion (a counter of threads inside the critical section),
 * for tests that swap the lock's provider under contention.
 *
 * <pre>{@code
 * LockHammer hammer = LockHammer.start(lock, 16, "it");
 * try { ... swap ... } finally { hammer.stop(); }
 * assertEquals(0, hammer.violations());
 * }</pre>
 */
final class LockHammer {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger violations = new AtomicInteger();
    private final AtomicLong acquisitions = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    private LockHammer() {}

    /** Starts {@code count} threads named {@code name-i} hammering {@code lock}. */
    static LockHammer start(Lock lock, int count, String name) {
        LockHammer hammer = new LockHammer();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> hammer.hammer(lock), name + "-" + i);
            thread.start();
            hammer.threads.add(thread);
        }
        return hammer;
    }

    private void hammer(Lock lock) {
        while (running.get()) {
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
