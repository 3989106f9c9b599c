package org.rouse.timer.internal;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/** Waits shared by the timer tests. */
final class TestThreads {

    private TestThreads() {}

    /** Waits for {@code latch}, keeping an interrupt for later: for engine hooks that hold an engine thread. */
    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        for (; ; ) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets {@code duration} pass, for a check that nothing happens meanwhile (not a wait for a result). */
    static void letTimePass(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        for (long left = duration.toNanos(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
