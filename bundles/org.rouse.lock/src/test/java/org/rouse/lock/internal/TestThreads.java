package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;

/** Real threads for tests: run bodies on named threads, join them, surface their failures. */
final class TestThreads {

    /** A body that may throw. */
    interface Body {
        void run(int index) throws Exception;
    }

    private TestThreads() {}

    /** Starts {@code count} threads running {@code body}; returns them. Failures are collected in {@code failures}. */
    static List<Thread> start(String name, int count, ConcurrentLinkedQueue<Throwable> failures, Body body) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            Thread t = new Thread(
                    () -> {
                        try {
                            body.run(index);
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    },
                    name + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        return threads;
    }

    /** Starts one thread running {@code body} and returns it once it is parked (inside a LockSupport park method). */
    static Thread startParked(String name, ConcurrentLinkedQueue<Throwable> failures, Body body) {
        Thread thread = start(name, 1, failures, body).get(0);
        awaitInside(thread, "LockSupport", "park");
        return thread;
    }

    /** Joins every thread (failing the test if one is still alive after the timeout) and rethrows the first failure. */
    static void joinAll(List<Thread> threads, Duration timeout, ConcurrentLinkedQueue<Throwable> failures)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            assertFalse(t.isAlive(), () -> t.getName() + " did not finish: " + Arrays.toString(t.getStackTrace()));
        }
        Throwable first = failures.peek();
        if (first != null) {
            fail("a worker failed: " + first, first);
        }
    }

    /** Runs {@code call} on another thread and returns its result. */
    static <T> T onOtherThread(Callable<T> call) throws Exception {
        FutureTask<T> task = new FutureTask<>(call);
        Thread t = new Thread(task, "test-other");
        t.setDaemon(true);
        t.start();
        try {
            return task.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new AssertionError("the other thread did not finish", e);
        }
    }

    /** Whether another thread's {@code tryLock()} succeeds (it keeps the lock if so: use only on held locks). */
    static boolean tryLockElsewhere(java.util.concurrent.locks.Lock lock) throws Exception {
        Boolean got = onOtherThread(lock::tryLock);
        return got;
    }

    /**
     * Waits until {@code thread} is inside a method whose name starts with {@code method} ("park" also matches
     * {@code parkNanos}: a waiter that re-checks parks with a timeout) of a class whose name contains {@code type}.
     */
    static void awaitInside(Thread thread, String type, String method) {
        Awaitility.await("thread inside " + type + "." + method)
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(2))
                .until(() -> Arrays.stream(thread.getStackTrace())
                        .anyMatch(f -> f.getClassName().contains(type)
                                && f.getMethodName().startsWith(method)));
    }
}
