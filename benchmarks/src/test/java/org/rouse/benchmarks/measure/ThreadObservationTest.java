package org.rouse.benchmarks.measure;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The /proc-based observations, on real threads (Linux only). */
class ThreadObservationTest {

    @Test
    @Timeout(10)
    void blockingCountsAsAVoluntaryContextSwitch() {
        assumeTrue(ContextSwitches.supported(), "needs /proc/thread-self/status");
        ThreadUsage before = ThreadUsage.begin();

        for (int i = 0; i < 5; i++) {
            LockSupport.parkNanos(1_000_000);
        }

        ThreadUsage used = ThreadUsage.end().minus(before);
        assertTrue(used.switches().voluntary() >= 5, "each park blocks the thread: " + used);
        assertTrue(used.cpuNanos() > 0, "reading the counters costs CPU: " + used);
    }

    @Test
    @Timeout(10)
    void aThreadWaitingOnALatchIsBlockedAndARunningOneIsNot() throws InterruptedException {
        assumeTrue(ContextSwitches.supported(), "needs /proc");
        assertFalse(KernelThread.current().isBlocked(), "the calling thread is running");

        AtomicReference<KernelThread> waiter = new AtomicReference<>();
        CountDownLatch release = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            waiter.set(KernelThread.current());
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        try {
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> waiter.get() != null && waiter.get().isBlocked());
        } finally {
            release.countDown();
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
    }
}
