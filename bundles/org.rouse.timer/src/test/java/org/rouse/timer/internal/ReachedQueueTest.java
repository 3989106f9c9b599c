package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rouse.timer.spi.TimerEntry;

/** The reached entries alone: the sorted run's arrays follow the load, up for a burst and back down after it. */
class ReachedQueueTest {

    private static final int SHIFT = 10;
    private static final long TICK = 1L << SHIFT;

    private final ReachedQueue queue = new ReachedQueue(SHIFT);
    private long tick;

    /** Reaches tick {@code tick} with {@code n} entries (deadlines descending within it) and fires them all. */
    private List<TimerEntry> reachAndFire(int n) {
        long start = tick * TICK;
        for (int i = 0; i < n; i++) {
            queue.gather(new FixedEntry(start + (n - i) % TICK));
        }
        queue.appendGathered(start);
        queue.checkInvariants();
        List<TimerEntry> due = new ArrayList<>();
        assertEquals(n, queue.pollDue(start + TICK, due));
        queue.checkInvariants();
        tick++;
        return due;
    }

    @Test
    void aBurstGrowsTheArraysAndSteadySmallTicksGiveThemBack() {
        assertArrayEquals(new int[] {64, 64}, queue.capacities());
        List<TimerEntry> burst = reachAndFire(5_000);
        for (int i = 1; i < burst.size(); i++) {
            assertTrue(burst.get(i).deadlineNanos() >= burst.get(i - 1).deadlineNanos(), "order at " + i);
        }
        assertArrayEquals(new int[] {8192, 8192}, queue.capacities());

        // halved after SHRINK_AFTER small appends in a row, each time: 8192 -> 64 is 7 halvings
        for (int round = 0; round < 7 * (ReachedQueue.SHRINK_AFTER + 1); round++) {
            reachAndFire(10);
        }
        assertArrayEquals(new int[] {64, 64}, queue.capacities());
        assertTrue(queue.isEmpty());
    }

    @Test
    void aRunThatFillsItsArraysEveryTickKeepsThem() {
        reachAndFire(1_000);
        int[] grown = queue.capacities();
        for (int round = 0; round < 3 * ReachedQueue.SHRINK_AFTER; round++) {
            reachAndFire(round % 2 == 0 ? 1_000 : 10); // a quarter or more every other tick
        }
        assertArrayEquals(grown, queue.capacities());
    }

    @Test
    void aRunThatNeverEmptiesStillShrinksAndKeepsItsPositions() {
        reachAndFire(5_000);
        // one entry per tick left behind until the next tick: the run is never empty
        long start = tick * TICK;
        queue.gather(new FixedEntry(start + TICK - 1));
        queue.appendGathered(start);
        for (int round = 0; round < 7 * (ReachedQueue.SHRINK_AFTER + 1); round++) {
            tick++;
            start = tick * TICK;
            for (int i = 0; i < 4; i++) {
                queue.gather(new FixedEntry(start + i * 100));
            }
            queue.appendGathered(start);
            List<TimerEntry> due = new ArrayList<>();
            assertEquals(4, queue.pollDue(start + 250, due)); // the previous tick's last entry and three of these
            queue.checkInvariants();
        }
        assertArrayEquals(new int[] {64, 64}, queue.capacities());
        assertEquals(1, queue.size());
    }
}
