package org.rouse.api.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.events.Recorded;

/** org.rouse.LockContended in a live JFR recording, driven by a real contended lock. */
class LockEventsTest {

    @Test
    @Timeout(60)
    void aWaitOverTheThresholdIsRecordedWithLockStrategyWaitAndTheWaitersStack() throws Exception {
        LockFacade lock = new LockFacade("hot-lock", "hot-lock", FallbackMutex.create());
        try (Recorded contended = new Recorded("org.rouse.LockContended", "waitThreshold", "20 ms")) {
            CountDownLatch acquired = new CountDownLatch(1);
            long[] waited = new long[1];
            Thread waiter = new Thread(
                    () -> {
                        long start = System.nanoTime();
                        lock.lock();
                        waited[0] = System.nanoTime() - start;
                        lock.unlock();
                        acquired.countDown();
                    },
                    "lock-events-waiter");
            lock.lock();
            try {
                waiter.start();
                Awaitility.await()
                        .atMost(Duration.ofSeconds(10))
                        .until(() -> waiter.getState() == Thread.State.WAITING); // parked in the primitive
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(60); // hold it: the waiter waits on
                for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            } finally {
                lock.unlock();
            }
            assertTrue(acquired.await(10, TimeUnit.SECONDS));

            RecordedEvent event = contended.await(e -> "hot-lock".equals(e.getString("lock")));
            assertEquals(FallbackMutex.STRATEGY, event.getString("strategy"));
            long wait = event.getDuration("wait").toNanos();
            assertTrue(wait >= TimeUnit.MILLISECONDS.toNanos(60) && wait <= waited[0], "wait " + wait);
            assertEquals("lock-events-waiter", event.getThread().getJavaName());
            assertTrue(
                    event.getStackTrace().getFrames().stream()
                            .map(RecordedFrame::getMethod)
                            .anyMatch(m -> m.getName().equals("lock")
                                    && m.getType().getName().equals(LockFacade.class.getName())),
                    "the stack shows where the thread waited");
        }
    }

    @Test
    @Timeout(60)
    void anUncontendedLockRecordsNothing() throws Exception {
        LockFacade lock = new LockFacade("cold-lock", "cold-lock", FallbackMutex.create());
        try (Recorded contended = new Recorded("org.rouse.LockContended", "waitThreshold", "0 ns")) {
            for (int i = 0; i < 1000; i++) {
                lock.lock();
                lock.unlock();
            }
            // a marker: another lock's contended wait, recorded after the loop, proves the stream has caught up
            LockFacade marker = new LockFacade("marker", "marker", FallbackMutex.create());
            marker.lock();
            Thread t = new Thread(() -> {
                marker.lock();
                marker.unlock();
            });
            t.start();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> t.getState() == Thread.State.WAITING);
            marker.unlock();
            t.join(10_000);
            contended.await(e -> "marker".equals(e.getString("lock")));
            assertTrue(contended.events().stream().noneMatch(e -> "cold-lock".equals(e.getString("lock"))));
        }
    }
}
