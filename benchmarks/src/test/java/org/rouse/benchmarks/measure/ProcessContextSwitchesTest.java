package org.rouse.benchmarks.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The process-wide context switch counters, on real threads (Linux only). */
class ProcessContextSwitchesTest {

    @Test
    @Timeout(10)
    void anotherThreadsParksInTheWindowAreCounted() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs /proc/self/task");
        int parks = 20;
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ProcessContextSwitches before = ProcessContextSwitches.read();
        Thread sleeper = new Thread(() -> {
            for (int i = 0; i < parks; i++) {
                LockSupport.parkNanos(1_000_000);
            }
            parked.countDown();
            try {
                release.await(); // alive at the second reading: an ended thread is not counted
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        try {
            assertTrue(parked.await(5, TimeUnit.SECONDS));
            ContextSwitches made = ProcessContextSwitches.read().since(before);
            assertTrue(made.voluntary() >= parks, "each park of a thread that started in the window: " + made);
        } finally {
            release.countDown();
            sleeper.join(5_000);
        }
    }

    @Test
    void aReadingSinceItselfIsZero() {
        ProcessContextSwitches now = ProcessContextSwitches.read();
        assertEquals(ContextSwitches.ZERO, now.since(now));
    }
}
