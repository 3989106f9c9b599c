package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine writes at most one wakeup per select cycle and none while its loop is awake. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class WakeupCoalescingTest {

    private final NioSelectorEngine engine = new NioSelectorEngine(Rig.settings(0, true));

    @AfterEach
    void tearDown() {
        engine.shutdown();
    }

    @Test
    void manyWakeupsWhileTheLoopIsAwakeWriteAtMostOne() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        engine.execute(() -> {
            running.countDown();
            try {
                release.await(); // holds the loop awake
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        running.await();
        long requested = engine.wakeupsRequested();
        long written = engine.wakeupsWritten();

        for (int i = 0; i < 10_000; i++) {
            engine.wakeup();
        }

        assertEquals(requested + 10_000, engine.wakeupsRequested());
        assertTrue(engine.wakeupsWritten() - written <= 1, "written: " + (engine.wakeupsWritten() - written));
        release.countDown();
    }

    @Test
    void aWakeupOfASelectingLoopIsWrittenAndEndsTheSelect() {
        await().until(engine::isSelecting);
        long cycles = engine.selectCycles();
        long written = engine.wakeupsWritten();

        engine.wakeup();

        await().until(() -> engine.selectCycles() > cycles);
        assertEquals(written + 1, engine.wakeupsWritten());
    }

    @Test
    void aStormOfWakeupsWritesAtMostOnePerSelectCycle() throws Exception {
        long cycles = engine.selectCycles();
        long written = engine.wakeupsWritten();
        Thread[] storm = new Thread[4];
        for (int t = 0; t < storm.length; t++) {
            storm[t] = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    engine.wakeup();
                }
            });
            storm[t].start();
        }
        for (Thread thread : storm) {
            thread.join();
        }

        long writes = engine.wakeupsWritten() - written;
        assertTrue(writes >= 1, "the idle loop was woken");
        // every written wakeup ends exactly one select: once the last one has, the cycles cover all writes
        await().until(() -> engine.selectCycles() - cycles >= writes);
        assertTrue(writes < 80_000, "coalesced: " + writes + " writes for 80000 requests");
    }
}
