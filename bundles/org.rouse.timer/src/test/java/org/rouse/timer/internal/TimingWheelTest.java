package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rouse.timer.spi.TimerEntry;

/** The wheel alone, on a synthetic clock: placement, cascading, bitmap search, removal, wrap-around, far deadlines. */
class TimingWheelTest {

    /** Ticks of 1024 ns, so level k slots are 1024 * 64^k ns wide. */
    private static final int SHIFT = 10;

    private static final long TICK = 1L << SHIFT;
    /** A clock origin near the nanoTime wrap-around, so every deadline comparison crosses it. */
    private static final long ORIGIN = Long.MAX_VALUE - 5_000_000L;

    private final TimingWheel wheel = new TimingWheel(ORIGIN, SHIFT);

    private TimerEntry add(long delayNanos) {
        TimerEntry node = new FixedEntry(ORIGIN + delayNanos);
        wheel.add(node);
        wheel.checkInvariants();
        return node;
    }

    private List<TimerEntry> advanceTo(long offsetNanos) {
        List<TimerEntry> due = new ArrayList<>();
        wheel.advance(ORIGIN + offsetNanos, due);
        wheel.checkInvariants();
        return due;
    }

    private static long ticksAtLevel(int level) {
        return 1L << (TimingWheel.SLOT_BITS * level);
    }

    @Test
    void entriesGoToTheLevelOfTheirHighestDifferingDigit() {
        for (int level = 0; level < TimingWheel.LEVELS; level++) {
            TimerEntry node = add(3 * ticksAtLevel(level) * TICK + 5);
            assertEquals(level, wheel.levelOf(node), "level of an entry 3 slots out at level " + level);
        }
        TimerEntry beyond = add((1L << (TimingWheel.SLOT_BITS * TimingWheel.LEVELS)) * TICK * 2);
        assertEquals(WheelPosition.OVERFLOW, wheel.levelOf(beyond));
        TimerEntry now = add(TICK / 2); // same tick as current: straight to the exact-deadline heap
        assertEquals(WheelPosition.CURRENT, wheel.levelOf(now));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void anEntryCascadesDownEveryLevelAndFiresAtItsDeadlineNotBefore(int level) {
        long deadline = 5 * ticksAtLevel(level) * TICK + 3 * ticksAtLevel(level - 1) * TICK + 77;
        TimerEntry node = add(deadline);
        assertEquals(level, wheel.levelOf(node));
        long cascadedBefore = wheel.cascaded();

        assertTrue(advanceTo(deadline - 1).isEmpty(), "fired early");
        assertEquals(WheelPosition.CURRENT, wheel.levelOf(node), "should have cascaded down to the current tick");
        assertTrue(wheel.cascaded() > cascadedBefore);
        assertEquals(deadline + ORIGIN, wheel.nextWakeNanos(), "parks until the exact deadline");
        assertEquals(List.of(node), advanceTo(deadline));
        assertTrue(wheel.isEmpty());
    }

    @Test
    void theNextWakeIsTheEarliestDeadlineEvenForAFarSlot() {
        long far = 7 * ticksAtLevel(3) * TICK + 12_345;
        add(far);
        add(far + 1_000_000);
        assertEquals(ORIGIN + far, wheel.nextWakeNanos(), "a far timer is woken for at its deadline, no cascade tick");
        add(40 * TICK + 9);
        assertEquals(ORIGIN + 40 * TICK + 9, wheel.nextWakeNanos(), "the bitmap search finds the level-0 slot");
    }

    @Test
    void theBitmapSearchSkipsEmptySlotsInOneStep() {
        TimerEntry a = add(63 * TICK);
        TimerEntry b = add(2 * TICK);
        assertEquals(ORIGIN + 2 * TICK, wheel.nextWakeNanos());
        wheel.remove(b);
        wheel.checkInvariants();
        assertEquals(ORIGIN + 63 * TICK, wheel.nextWakeNanos());
        assertEquals(List.of(a), advanceTo(63 * TICK));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void cancelAtEveryLevelRemovesTheEntryAtOnce(int level) {
        long deadline = level == TimingWheel.LEVELS
                ? (1L << (TimingWheel.SLOT_BITS * TimingWheel.LEVELS)) * TICK * 3
                : 9 * ticksAtLevel(level) * TICK + 1;
        TimerEntry keep = add(deadline + 10);
        TimerEntry node = add(deadline);
        assertEquals(level == TimingWheel.LEVELS ? WheelPosition.OVERFLOW : level, wheel.levelOf(node));
        assertEquals(2, wheel.size());
        wheel.remove(node);
        wheel.checkInvariants();
        assertFalse(wheel.holds(node));
        assertEquals(1, wheel.size());
        assertEquals(List.of(keep), advanceTo(deadline + 10));
        assertTrue(wheel.isEmpty());
    }

    @Test
    void cancelInTheCurrentTickHeap() {
        TimerEntry a = add(100);
        TimerEntry b = add(200);
        wheel.remove(a);
        wheel.checkInvariants();
        assertEquals(List.of(b), advanceTo(TICK));
    }

    @Test
    void wrapAroundOfEveryLevelKeepsOrder() {
        // Walk time across many level-1 and level-2 boundaries with timers straddling each one.
        List<TimerEntry> nodes = new ArrayList<>();
        for (long t = 60; t < 3 * ticksAtLevel(2) + 70; t += 61) {
            nodes.add(add(t * TICK + (t % 7)));
        }
        List<TimerEntry> fired = new ArrayList<>();
        for (long now = 0; !wheel.isEmpty(); now += 37 * TICK) {
            List<TimerEntry> due = advanceTo(now);
            for (TimerEntry entry : due) {
                assertTrue(entry.deadlineNanos() - (ORIGIN + now) <= 0, "fired early");
                assertTrue(entry.deadlineNanos() - (ORIGIN + now - 37 * TICK) > 0, "fired late");
            }
            fired.addAll(due);
        }
        assertEquals(nodes.size(), fired.size());
        for (int i = 1; i < fired.size(); i++) {
            assertTrue(fired.get(i).deadlineNanos() - fired.get(i - 1).deadlineNanos() >= 0, "out of order at " + i);
        }
    }

    @Test
    void farDeadlinesWaitInTheOverflowHeapAndEnterTheWheelInTime() {
        long span = (1L << (TimingWheel.SLOT_BITS * TimingWheel.LEVELS)) * TICK;
        TimerEntry far = add(span * 5 + 123);
        TimerEntry farther = add(span * 9 + 7);
        assertEquals(WheelPosition.OVERFLOW, wheel.levelOf(far));
        assertEquals(ORIGIN + span * 5 + 123, wheel.nextWakeNanos());
        assertTrue(advanceTo(span * 5).isEmpty());
        assertTrue(wheel.levelOf(far) >= 0 || wheel.levelOf(far) == WheelPosition.CURRENT);
        assertEquals(WheelPosition.OVERFLOW, wheel.levelOf(farther));
        assertEquals(List.of(far), advanceTo(span * 5 + 123));
        assertEquals(List.of(farther), advanceTo(span * 9 + 7));
    }

    @Test
    void aDeadlineInThePastIsDueAtOnce() {
        TimerEntry late = new FixedEntry(ORIGIN - 1_000_000);
        wheel.add(late);
        assertEquals(List.of(late), advanceTo(0));
    }

    @Test
    void randomScheduleCancelAndAdvanceMatchesASortedModel() {
        Random random = new Random(42);
        List<TimerEntry> live = new ArrayList<>();
        long now = 0;
        for (int round = 0; round < 20_000; round++) {
            int action = random.nextInt(10);
            if (action < 5) {
                long delay = switch (random.nextInt(4)) {
                    case 0 -> random.nextInt((int) TICK * 4);
                    case 1 -> random.nextInt(1 << 20);
                    case 2 -> (long) random.nextInt(1 << 30) * 8;
                    default -> random.nextLong(1L << 45);
                };
                live.add(add(now + delay));
            } else if (action < 7 && !live.isEmpty()) {
                TimerEntry node = live.remove(random.nextInt(live.size()));
                wheel.remove(node);
            } else {
                now += random.nextInt(1 << 22);
                long until = now;
                List<TimerEntry> due = advanceTo(now);
                List<TimerEntry> expected = new ArrayList<>();
                for (TimerEntry node : live) {
                    if (node.deadlineNanos() - (ORIGIN + until) <= 0) {
                        expected.add(node);
                    }
                }
                expected.sort(Comparator.comparingLong(n -> n.deadlineNanos() - ORIGIN));
                assertEquals(expected.size(), due.size(), "due count at round " + round);
                for (int i = 0; i < due.size(); i++) {
                    assertEquals(expected.get(i).deadlineNanos(), due.get(i).deadlineNanos());
                }
                live.removeAll(expected);
            }
            assertEquals(live.size(), wheel.size());
        }
    }

    @Test
    void theNextLevel1SlotIsStagedAheadOfItsBlockSoItsStartCascadesOnlyLateArrivals() {
        int early = 2_000;
        List<TimerEntry> nodes = new ArrayList<>();
        for (int i = 0; i < early; i++) { // level-1 slot 2: ticks 128..191
            nodes.add(add((2 * 64 + i % 64) * TICK + i % 97));
        }
        for (int tick = 1; tick < 64; tick++) { // one advance per tick through block 0
            assertTrue(advanceTo(tick * TICK).isEmpty());
        }
        assertEquals(early, wheel.cascaded(), "staged while block 0 and 1 pass, a budget per advance");
        TimerEntry late = add(2 * 64 * TICK + 40 * TICK + 3); // arrives after staging ended
        assertEquals(1, wheel.levelOf(late));
        nodes.add(late);
        for (int tick = 64; tick < 128; tick++) {
            assertTrue(advanceTo(tick * TICK).isEmpty());
        }
        long beforeBlock = wheel.cascaded();
        List<TimerEntry> fired = new ArrayList<>(advanceTo(128 * TICK));
        assertTrue(
                wheel.cascaded() - beforeBlock <= 1,
                "the block's start swaps the staged row and cascades only the late arrival, not "
                        + (wheel.cascaded() - beforeBlock));
        fired.addAll(advanceTo(192 * TICK));
        assertEquals(nodes.size(), fired.size());
        for (int i = 1; i < fired.size(); i++) {
            assertTrue(fired.get(i).deadlineNanos() - fired.get(i - 1).deadlineNanos() >= 0, "out of order at " + i);
        }
        assertTrue(wheel.isEmpty());
    }

    @Test
    void aStagedSlotKeepsWakingAtItsEarliestEntryWhenItsListEmptiesAndRefills() {
        TimerEntry first = add(130 * TICK + 5);
        add(139 * TICK);
        assertTrue(advanceTo(TICK).isEmpty()); // both staged: the level-1 slot's own list is empty
        assertEquals(ORIGIN + 130 * TICK + 5, wheel.nextWakeNanos());
        add(190 * TICK); // into the same, now empty, level-1 list
        assertEquals(ORIGIN + 130 * TICK + 5, wheel.nextWakeNanos(), "a staged entry is still the earliest");
        wheel.remove(first);
        wheel.checkInvariants();
        assertEquals(2, wheel.size());
        assertEquals(1, advanceTo(139 * TICK).size());
        assertEquals(1, advanceTo(190 * TICK).size());
        assertTrue(wheel.isEmpty());
    }

    @Test
    void aSlotWhoseStagedEntriesAreAllCancelledLeavesNoEvent() {
        TimerEntry a = add(130 * TICK);
        TimerEntry b = add(131 * TICK);
        assertTrue(advanceTo(TICK).isEmpty());
        wheel.remove(a);
        wheel.remove(b);
        wheel.checkInvariants();
        assertTrue(wheel.isEmpty());
        TimerEntry c = add(70 * TICK); // a lower level-1 slot than the one that was staged
        assertEquals(ORIGIN + 70 * TICK, wheel.nextWakeNanos());
        assertEquals(List.of(c), advanceTo(70 * TICK));
    }

    @Test
    void aLevel2SlotIsStagedToo_EntriesOfItsFirstBlockAheadAndTheRestDeferred() {
        assertTrue(advanceTo(4000 * TICK).isEmpty()); // level-1 digit 62: the next boundary is 96 ticks away
        List<TimerEntry> nodes = new ArrayList<>();
        int early = 2_000;
        for (int i = 0; i < early; i++) { // re-armed just before a level-2 boundary, as 50 ms timers are
            nodes.add(add((4096 + i % 48) * TICK + i % 89));
        }
        int deferred = 30;
        for (int i = 0; i < deferred; i++) { // the same level-2 slot, a later level-1 block
            nodes.add(add((4096 + 3 * 64 + i) * TICK));
        }
        for (TimerEntry node : nodes) {
            assertEquals(2, wheel.levelOf(node));
        }
        for (int tick = 4001; tick < 4096; tick++) {
            assertTrue(advanceTo(tick * TICK).isEmpty());
        }
        assertEquals(early, wheel.cascaded(), "the boundary's first block staged ahead");
        for (TimerEntry node : nodes) {
            assertEquals(2, wheel.levelOf(node), "taken entries still count as the slot's level");
        }
        long beforeBoundary = wheel.cascaded();
        List<TimerEntry> fired = new ArrayList<>(advanceTo(4096 * TICK));
        long atBoundary = wheel.cascaded() - beforeBoundary;
        assertTrue(
                atBoundary <= 2 * deferred,
                "the boundary cascades at most the deferred entries (to level 1, and staging them toward their own"
                        + " block), not the staged block: " + atBoundary);
        fired.addAll(advanceTo((4096 + 4 * 64) * TICK));
        assertEquals(nodes.size(), fired.size());
        for (int i = 1; i < fired.size(); i++) {
            assertTrue(fired.get(i).deadlineNanos() - fired.get(i - 1).deadlineNanos() >= 0, "out of order at " + i);
        }
        assertTrue(wheel.isEmpty());
    }

    @ParameterizedTest
    @CsvSource({"7, 300, 12", "11, 9000, 700", "13, 300000, 40000", "17, 200, 1"})
    void denseRandomScheduleCancelAndAdvanceAcrossStagedBlocksMatchesASortedModel(
            long seed, long maxDelayTicks, long maxStepTicks) {
        Random random = new Random(seed);
        List<TimerEntry> live = new ArrayList<>();
        long now = 0;
        for (int round = 0; round < 30_000; round++) {
            int action = random.nextInt(10);
            if (action < 6) {
                live.add(add(now + random.nextLong(maxDelayTicks * TICK)));
            } else if (action < 8 && !live.isEmpty()) {
                wheel.remove(live.remove(random.nextInt(live.size())));
                wheel.checkInvariants();
            } else {
                now += random.nextLong(maxStepTicks * TICK);
                long until = ORIGIN + now;
                List<TimerEntry> due = advanceTo(now);
                List<TimerEntry> expected = new ArrayList<>();
                for (TimerEntry node : live) {
                    if (node.deadlineNanos() - until <= 0) {
                        expected.add(node);
                    }
                }
                expected.sort(Comparator.comparingLong(n -> n.deadlineNanos() - ORIGIN));
                assertEquals(expected.size(), due.size(), "due count at round " + round);
                for (int i = 0; i < due.size(); i++) {
                    assertEquals(
                            expected.get(i).deadlineNanos(), due.get(i).deadlineNanos(), "order at round " + round);
                }
                live.removeAll(expected);
            }
            assertEquals(live.size(), wheel.size());
        }
        assertTrue(wheel.cascaded() > 0);
    }

    @Test
    void aTickReachedAsAWholeFiresInDeadlineOrderAroundCancelsAndArmsForTheSameTick() {
        Random random = new Random(3);
        long tickStart = 70 * TICK; // a level-1 slot at first: reached as one sorted batch (ReachedQueue's run)
        List<TimerEntry> live = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            live.add(add(tickStart + random.nextInt((int) TICK)));
        }
        long part = tickStart + TICK / 4;
        List<TimerEntry> early = advanceTo(part);
        live.removeAll(early);
        live.sort(Comparator.comparingLong(n -> n.deadlineNanos() - ORIGIN));
        wheel.remove(live.remove(0)); // the run's first entry, then some in its middle
        wheel.checkInvariants();
        for (int i = 0; i < 20; i++) {
            wheel.remove(live.remove(random.nextInt(live.size())));
            wheel.checkInvariants();
        }
        for (int i = 0; i < 50; i++) { // armed for the tick already reached: the queue's heap, merged with the run
            live.add(add(part + random.nextInt((int) (TICK * 3 / 4))));
        }
        assertEquals(live.size(), wheel.size());
        List<TimerEntry> late = advanceTo(tickStart + TICK);

        assertFalse(early.isEmpty());
        for (TimerEntry node : early) {
            assertTrue(node.deadlineNanos() - (ORIGIN + part) <= 0, "fired before its deadline");
        }
        List<TimerEntry> fired = new ArrayList<>(early);
        fired.addAll(late);
        for (int i = 1; i < fired.size(); i++) {
            assertTrue(fired.get(i).deadlineNanos() - fired.get(i - 1).deadlineNanos() >= 0, "order at " + i);
        }
        assertEquals(live.size(), late.size());
        assertTrue(late.containsAll(live));
        assertTrue(wheel.isEmpty());
    }

    @Test
    void removeAllEmptiesEveryStructure() {
        add(5);
        add(300 * TICK);
        add(5 * ticksAtLevel(4) * TICK);
        add((1L << 40) * TICK);
        List<TimerEntry> out = new ArrayList<>();
        wheel.removeAll(out::add);
        assertEquals(4, out.size());
        assertTrue(wheel.isEmpty());
        wheel.checkInvariants();
        out.forEach(node -> assertFalse(wheel.holds(node)));
    }

    @Test
    void entriesDeferredAtALevel2BoundaryArePlacedOverTheFollowingTicksNotAllAtOnce() {
        assertTrue(advanceTo(4000 * TICK).isEmpty());
        // 100,000 timers of 500 ms near a level-2 boundary, scaled down: 20,000 entries re-armed into the next
        // level-2 block, due over its first ~950 ticks, so all but the first block's are deferred
        int count = 20_000;
        List<Long> deadlines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long deadline = (4096 + (i * 950L) / count) * TICK + i % 89;
            deadlines.add(ORIGIN + deadline);
            wheel.add(new FixedEntry(ORIGIN + deadline));
        }
        wheel.checkInvariants();
        for (int tick = 4001; tick < 4096; tick++) {
            assertTrue(advanceTo(tick * TICK).isEmpty());
        }
        long beforeBoundary = wheel.cascaded();
        List<TimerEntry> fired = new ArrayList<>(advanceTo(4096 * TICK));
        long atBoundary = wheel.cascaded() - beforeBoundary;
        assertTrue(
                atBoundary < count / 4,
                "the boundary cascaded " + atBoundary + " of " + count + " entries in one advance");
        long maxPerTick = 0;
        for (int tick = 4097; tick <= 4096 + 960; tick++) {
            long before = wheel.cascaded();
            fired.addAll(advanceTo(tick * TICK + TICK - 1)); // one advance per tick, to the tick's end
            maxPerTick = Math.max(maxPerTick, wheel.cascaded() - before);
        }
        assertTrue(maxPerTick < count / 4, "one tick cascaded " + maxPerTick + " of " + count + " entries");
        assertEquals(count, fired.size(), "every entry fired once");
        for (int i = 1; i < fired.size(); i++) {
            assertTrue(fired.get(i).deadlineNanos() - fired.get(i - 1).deadlineNanos() >= 0, "out of order at " + i);
        }
        assertTrue(wheel.isEmpty());
    }

    @Test
    void entriesDeferredAtALevel2BoundaryStartSpreadingWithoutBeingTouchedThere() {
        assertTrue(advanceTo(4000 * TICK).isEmpty());
        int count = 20_000; // as above: all but the first block's are deferred
        long[] writes = {0};
        for (int i = 0; i < count; i++) {
            wheel.add(new FixedEntry(ORIGIN + (4096 + (i * 950L) / count) * TICK + i % 89) {
                @Override
                public void enginePosition(int position) {
                    writes[0]++; // each write is a cache miss on an entry of a large wheel
                    super.enginePosition(position);
                }
            });
        }
        for (int tick = 4001; tick < 4096; tick++) {
            assertTrue(advanceTo(tick * TICK).isEmpty());
        }
        long before = writes[0];
        List<TimerEntry> fired = new ArrayList<>();
        wheel.advance(ORIGIN + 4096 * TICK, fired); // the boundary itself, without the O(n) invariant check
        long atBoundary = writes[0] - before;
        assertTrue(
                atBoundary < count / 4,
                "the boundary's advance moved " + atBoundary + " of " + count + " entries (the deferred ones must"
                        + " become the spreading ones as a list)");
        wheel.checkInvariants();
        fired.addAll(advanceTo((4096 + 2000) * TICK));
        assertEquals(count, fired.size(), "every entry fired once");
        assertTrue(wheel.isEmpty());
    }

    @Test
    void entriesMovingBetweenSlotListsAreNotTouched() {
        assertTrue(advanceTo(4000 * TICK).isEmpty());
        // 20,000 entries of one level-2 slot, all due after the first block of the next level-2 block, so that the
        // advances up to that block's end stage them, swap at the boundary and spread them all, and fire none
        int count = 20_000;
        long[] calls = {0};
        for (int i = 0; i < count; i++) {
            wheel.add(new CountingEntry(ORIGIN + (4096 + 64 + (i * 900L) / count) * TICK + i % 89, calls));
        }
        wheel.checkInvariants();
        calls[0] = 0;
        List<TimerEntry> due = new ArrayList<>();
        for (int tick = 4001; tick < 4096 + 64; tick++) {
            wheel.advance(ORIGIN + tick * TICK, due); // without the invariant check, which reads every entry
        }
        assertTrue(due.isEmpty());
        assertTrue(wheel.cascaded() >= count, "every entry moved at least once: " + wheel.cascaded());
        assertEquals(0, calls[0], "moves between lists called the entries (each a cache miss on a large wheel)");
        wheel.checkInvariants();
        assertEquals(count, advanceTo((4096 + 2000) * TICK).size(), "every entry fired once");
    }

    @Test
    void entriesStillSpreadingArePlacedWhenTimeJumpsPastTheirBlock() {
        assertTrue(advanceTo(4000 * TICK).isEmpty());
        int count = 5_000;
        for (int i = 0; i < count; i++) {
            wheel.add(new FixedEntry(ORIGIN + (4096 + 64 + (i * 900L) / count) * TICK + i % 7));
        }
        for (int tick = 4001; tick <= 4096; tick++) {
            assertTrue(advanceTo(tick * TICK).isEmpty());
        }
        // an idle engine: the next advance comes long after the block the spreading entries had to be placed by
        List<TimerEntry> fired = advanceTo((4096 + 2000) * TICK);
        assertEquals(count, fired.size(), "every entry fired once, in one late advance");
        for (int i = 1; i < fired.size(); i++) {
            assertTrue(fired.get(i).deadlineNanos() - fired.get(i - 1).deadlineNanos() >= 0, "out of order at " + i);
        }
        assertTrue(wheel.isEmpty());
    }

    /** An entry that counts every call made on it, into a counter its test shares among its entries. */
    private static final class CountingEntry extends FixedEntry {
        private final long[] calls;

        CountingEntry(long deadline, long[] calls) {
            super(deadline);
            this.calls = calls;
        }

        @Override
        public long deadlineNanos() {
            calls[0]++;
            return super.deadlineNanos();
        }

        @Override
        public int enginePosition() {
            calls[0]++;
            return super.enginePosition();
        }

        @Override
        public void enginePosition(int position) {
            calls[0]++;
            super.enginePosition(position);
        }

        @Override
        public int engineLink() {
            calls[0]++;
            return super.engineLink();
        }

        @Override
        public void engineLink(int link) {
            calls[0]++;
            super.engineLink(link);
        }
    }
}
