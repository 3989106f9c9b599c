package org.rouse.timer.internal;

import java.util.List;
import java.util.function.Consumer;
import org.rouse.timer.spi.TimerEntry;

/**
 * A hierarchical timing wheel on absolute ticks with occupancy bitmaps. Not thread-safe: the engine's lock guards
 * every call. Time is passed in, never read here, so tests drive it with a synthetic clock.
 */
final class TimingWheel {

    /*
     * Implementation notes.
     *
     * Sources. G. Varghese and T. Lauck, "Hashed and Hierarchical Timing Wheels" (SOSP 1987, scheme 7: hierarchical
     * wheels with cascading); Apache Kafka's TimingWheel (a wheel that is advanced to the next occupied bucket instead
     * of ticking through empty ones); Linux's kernel/time/timer.c (64-slot levels, a pending bitmap searched with
     * find-next-bit, levels chosen from the expiry's bits).
     *
     * Layout. A deadline d becomes the tick t = (d - origin) >> tickShift. `current` is the last tick reached. There
     * are LEVELS levels of 64 slots; a slot index is one 6-bit digit of a tick (level k uses bits 6k..6k+5). An entry
     * with t > current lives at the level of the highest digit in which t and current differ (t ^ current), in the slot
     * named by t's digit there. Each level has a long bitmap of non-empty slots, so finding the next occupied slot is
     * one Long.numberOfTrailingZeros: no slot is ever visited because time passed over it. Entries with t <= current
     * are in `reached` (a ReachedQueue: a sorted run of whole level-0 slots, plus a heap), ordered by exact
     * deadline, which is what lets the dispatcher wake at a timer's own deadline rather than at a tick boundary. Entries whose highest differing digit is above the top level are in
     * `overflow`, a min-heap; they enter the wheel when current reaches their top block. A slot's entries form a
     * doubly linked list whose links are ints in the arena arrays (`nextLink`, `previousLink`, indexed by the node's
     * `link`; `nodes` maps an arena slot back to its node): see the note on the arena fields for why.
     *
     * Invariants (checked by `checkInvariants` in tests):
     * 1. An entry at level k has the same digits as current above k, and a larger digit at k. So every occupied slot of
     *    level k has an index greater than current's digit there, every entry of level k is due before every entry of
     *    level k + 1, and the lowest set bit of the lowest non-empty level is the next thing that happens.
     * 2. `advance` never moves current past that next event; it moves to it, handles it (a level-0 slot goes to
     *    `reached`; a higher slot is cascaded: each entry is placed again relative to the new current, which puts it
     *    strictly lower), and repeats. Moving current up to a tick before the next event keeps invariant 1, because
     *    nothing lies in between.
     * 3. A slot's `slotMinimum` is a lower bound of its entries' deadlines (exact until an entry is removed); it is
     *    what the dispatcher parks until, so a cascade happens when its first entry is due, not at the slot's boundary,
     *    and a far timer costs no wakeups on its way down.
     * 4. `size` counts entries in slots, `reached` and `overflow`. An entry holds an arena slot exactly while it is in a
     *    slot list (`nodes[entry.engineLink()] == entry`); the free slots are chained from `freeHead`.
     * 5. Staging. Level 0 has two rows of 64 slots: the active row (`level0Row`) and the staging row. While
     *    `stagedSource` is not -1 it names a slot of level k >= 1 (the lowest occupied slot of the lowest non-empty
     *    level when staging began) whose event tick E starts a level-0 block B = E >>> 6. The staging row then holds
     *    entries taken from that slot whose tick is in B, each in the slot of its level-0 digit, i.e. where it will be
     *    once current reaches E; `stagedCount` counts them. Entries taken from the slot that are not in B (only at
     *    k >= 2) wait in the `DEFERRED` list, still due where the slot said. The slot's bit stays set while its own
     *    list, the staging row or `DEFERRED` holds any, and its `slotMinimum` bounds all three. The first `advance` in
     *    each tick takes some of the slot's entries (a budget that spreads the slot over the ticks left before E;
     *    later advances in the same tick take none, since an engine whose awake worker fires small batches advances
     *    many times per tick and a budget per call cost each of them microseconds), and reaching E swaps
     *    the two rows: no staged entry is touched then, only the slot's late arrivals are cascaded (and the staged
     *    entries of digit 0, which are due at E itself), and `DEFERRED` becomes `SPREADING` (invariant 6): the two
     *    lists trade roles, so no deferred entry is touched then either. A lower slot that gains entries after
     *    staging began is an earlier event and cascades into the active row as usual, since its block ends before B.
     * 6. Spreading. While `SPREADING` holds entries, each is due in a level-0 block after the one E started, i.e. at
     *    or after `spreadUntil` = (B + 1) << 6, and current is before `spreadUntil - 1`. Every advance places a share of
     *    them relative to current (in proportion to the time since the last one over the time left, twice over); the
     *    tick `spreadUntil - 1` is an event of its own, at which the rest are placed, so an advance
     *    that jumps past it (an idle engine) still places them before any of their events. `slotMinimum[SPREADING]`
     *    bounds their deadlines, and nextWakeNanos() counts it. Why: at a level-2 boundary nearly all of the slot's
     *    entries are deferred (100,000 timers of 500 ms: ~90,000, re-armed into the next level-2 block but due over its
     *    first 950 ticks), and cascading them at E stalled the engine lock for ~10 ms every 2.15 s.
     *
     * Why staging. At the default tick (2^19 ns for 1,000 µs) level 0 spans 33.5 ms, less than a 50 ms period, so
     * 10,000 timers of that period put ~6,700 entries into each level-1 slot; cascading them at the block's start took
     * ~1.1 ms under the engine lock every 33.5 ms, and the events due just after it were that late (docs/performance.md,
     * "Timer lateness: where the millisecond tail comes from"). Spread over the ticks before the block, the same work
     * costs each tick a few dozen microseconds. At a level-2 boundary (every 4,096 ticks, 2.15 s) all 10,000 are in
     * one level-2 slot, re-armed in the 48 ticks before it; staging that slot spreads that cascade the same way.
     *
     * Costs. `add` and `remove` are O(1) for slots (list link, bitmap bit) and for the reached run, and O(log n) only
     * in the two heaps, which hold the entries reached on their own and those beyond the wheel's span (2^36 ticks); a
     * level-0 slot reached as a whole costs one sort of k longs. Each entry is cascaded at
     * most once per level (and may first be taken into `DEFERRED`, once); the first advance of a tick takes at most
     * max(64, 2 r / t) entries from the staged slot besides its own events (r entries left in the slot, t ticks before
     * its event), and the others of that tick none.
     */

    static final int LEVELS = 6;
    static final int SLOT_BITS = 6;
    static final int SLOTS = 1 << SLOT_BITS;

    private final long origin;
    private final int tickShift;

    /** The last tick reached; every entry with a tick at or before it is in {@link #reached}. */
    private long current;

    /** The fewest entries an advance stages while a staged slot has any left. */
    static final int STAGING_BUDGET = 64;

    /**
     * The index in {@link #heads} of the first of the two lists after the rows. One is the {@link #deferred} list, the
     * other the {@link #spreading} one; they trade roles when a staged slot's event comes, so that the entries waiting
     * in the first start spreading without being touched (see invariant 6).
     */
    private static final int TAKEN_LISTS = (LEVELS + 1) * SLOTS;

    /**
     * The index in {@link #heads} of the list of entries taken from the staged slot but outside its staged block
     * (`DEFERRED` in the notes; {@link #TAKEN_LISTS} or the one after it); it has no bit and no event of its own
     * (the staged slot's bit stands for it).
     */
    private int deferred = TAKEN_LISTS;

    /**
     * The index in {@link #heads} of the list of entries that were deferred when their staged slot's event came
     * (`SPREADING` in the notes; the other of the two lists), still to be placed relative to the new current, a
     * budget per advance, before {@link #spreadUntil}; no bit of its own either (see invariant 6).
     */
    private int spreading = TAKEN_LISTS + 1;

    /** The most spreading entries an advance places (about 100 µs of work) unless the list must be emptied now. */
    static final int SPREAD_BUDGET_CAP = 512;

    /** The event kind {@link #nextEventTick()} reports when the {@link #spreading} list must be emptied now. */
    private static final int SPREAD_EVENT = LEVELS + 1;

    /**
     * Row r holds slots r * 64 .. r * 64 + 63: rows 1..5 are levels 1..5, rows 0 and LEVELS the two level-0 rows;
     * the two {@link #TAKEN_LISTS} follow them.
     */
    private final int[] heads = new int[TAKEN_LISTS + 2];

    /*
     * Each entry is its own node: its engine position says where it is (WheelPosition; LISTED for any slot list) and
     * its engine link names its arena slot. The links of the slot lists, the list each slot is in and its node's
     * deadline are in arrays indexed by a node's link (a slot of this arena, held from when the node enters a slot
     * list until it leaves the lists for a heap or the wheel): a cascade, a staging move, a spread, an arm and a
     * disarm write ints, a move between lists touches no node, and a node enters `nodes` once per stay in the lists.
     * Links as references between nodes had each of those writes store a reference into a long-lived node of another
     * heap region, which under G1 marks a card that concurrent refinement then scans: at 10,000 periodic timers, most
     * of the refinement CPU left.
     */
    /** The node holding each arena slot, or null for a free one. */
    private TimerEntry[] nodes = new TimerEntry[64];
    /** The next and previous arena slot in the same slot list, or NONE; a free slot's next is the next free one. */
    private int[] nextLink = new int[64];

    private int[] previousLink = new int[64];
    /**
     * The list each arena slot is in (an index in {@link #heads}) and its node's deadline, copied as the node enters
     * the lists: a cascade, a staging move or a spread reads and writes these and never the node, which at 100,000
     * timers is in no cache by the time it moves (a miss per node, ~190,000 of them around each level-2 boundary).
     */
    private int[] listOf = new int[64];

    private long[] deadlineOf = new long[64];
    /** The last freed arena slot, or NONE: a re-armed timer usually gets its slot back. */
    private int freeHead = NONE;
    /** Free arena slots (on the chain from {@link #freeHead}). */
    private int freeCount;
    /** Arena slots ever handed out (the rest of the arrays is unused). */
    private int linksInUse;

    private final long[] slotMinimum = new long[TAKEN_LISTS + 2];
    private final int[] slotSize = new int[TAKEN_LISTS + 2];
    /** Per row, a bit per non-empty slot (the last word is the {@link #TAKEN_LISTS}', never searched). */
    private final long[] occupied = new long[LEVELS + 2];
    /** The row that is level 0 (0 or {@link #LEVELS}); the other level-0 row is the staging row. */
    private int level0Row;
    /** The index of the slot whose entries are being staged (level 1..5), or -1. */
    private int stagedSource = -1;
    /** Entries in the staging row. */
    private int stagedCount;
    /** The tick at which {@link #stage()} last ran, so that it runs once per tick however often time advances. */
    private long stagedAtTick = -1;
    /**
     * While the {@link #spreading} list holds entries: the start of the first level-0 block after the event that made
     * them spread, before which each must be placed (none is due in an earlier block).
     */
    private long spreadUntil;
    /** When the current spread began (the event's tick, as {@code System.nanoTime()}), and how many it had then. */
    private long spreadFromNanos;

    private int spreadTotal;

    private final ReachedQueue reached;
    private final DeadlineHeap overflow = new DeadlineHeap(WheelPosition.OVERFLOW_HEAP);
    private int size;
    private long cascaded;

    /** Set by {@link #nextEventTick()}: the level ({@link #LEVELS} for the overflow heap) and slot of the event. */
    private int eventLevel;

    private int eventSlot;

    /**
     * @param originNanos the {@link System#nanoTime()} value of tick 0
     * @param tickShift a tick is {@code 2^tickShift} ns
     */
    TimingWheel(long originNanos, int tickShift) {
        if (tickShift < 0 || tickShift > 40) {
            throw new IllegalArgumentException("tickShift must be in 0..40: " + tickShift);
        }
        this.origin = originNanos;
        this.tickShift = tickShift;
        this.reached = new ReachedQueue(tickShift);
        java.util.Arrays.fill(heads, NONE);
    }

    /** No arena slot: an empty list, the end of a list, or a node in no list. */
    static final int NONE = -1;

    /** Gives {@code node} an arena slot (it has none). */
    private int takeLink(TimerEntry node) {
        int link;
        if (freeHead != NONE) {
            link = freeHead;
            freeHead = nextLink[link];
            freeCount--;
        } else {
            if (linksInUse == nodes.length) {
                int capacity = nodes.length * 2;
                nodes = java.util.Arrays.copyOf(nodes, capacity);
                nextLink = java.util.Arrays.copyOf(nextLink, capacity);
                previousLink = java.util.Arrays.copyOf(previousLink, capacity);
                listOf = java.util.Arrays.copyOf(listOf, capacity);
                deadlineOf = java.util.Arrays.copyOf(deadlineOf, capacity);
            }
            link = linksInUse++;
        }
        nodes[link] = node;
        deadlineOf[link] = node.deadlineNanos();
        node.engineLink(link);
        node.enginePosition(WheelPosition.LISTED);
        return link;
    }

    /** Takes {@code node}'s arena slot back, if it has one (it is in no list). */
    private void dropLink(TimerEntry node) {
        int link = node.engineLink();
        if (link != NONE) {
            nodes[link] = null;
            nextLink[link] = freeHead;
            freeHead = link;
            freeCount++;
            node.engineLink(NONE);
        }
    }

    /** Takes arena slot {@code link} (in no list) back from its node, which leaves the slot lists; returns the node. */
    private TimerEntry leaveLists(int link) {
        TimerEntry node = nodes[link];
        dropLink(node);
        return node;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int tickShift() {
        return tickShift;
    }

    /** Entries moved down a level so far. */
    long cascaded() {
        return cascaded;
    }

    private long tickOf(long deadlineNanos) {
        return (deadlineNanos - origin) >> tickShift;
    }

    /** Adds {@code node}, which is in no structure of this wheel (its position and link are this wheel's now). */
    void add(TimerEntry node) {
        place(node); // whatever link and position an earlier engine left are overwritten here
        size++;
    }

    /**
     * Whether {@code node} is in this wheel. Its position and link are checked against the wheel's own arrays rather
     * than trusted: an entry that another engine has taken over since (a swap) carries that engine's values.
     */
    boolean holds(TimerEntry node) {
        int position = node.enginePosition();
        if (position >= 0) {
            int link = node.engineLink();
            return link >= 0 && link < linksInUse && nodes[link] == node;
        }
        if (position == WheelPosition.DETACHED) {
            return false;
        }
        return WheelPosition.arrayOf(position) == WheelPosition.OVERFLOW_HEAP
                ? overflow.holds(node, WheelPosition.arrayIndex(position))
                : reached.holds(node, position);
    }

    /** Places {@code node}, which is in no structure and has no arena slot, relative to current. */
    private void place(TimerEntry node) {
        placeLink(takeLink(node)); // one that goes to reached or the overflow heap gives the slot straight back
    }

    /**
     * Places the node of arena slot {@code link} (taken off its list) relative to current: into another list without
     * touching the node, or out of the lists into reached or the overflow heap.
     */
    private void placeLink(int link) {
        long tick = tickOf(deadlineOf[link]);
        if (tick <= current) {
            reached.add(leaveLists(link));
            return;
        }
        int level = (63 - Long.numberOfLeadingZeros(tick ^ current)) / SLOT_BITS;
        if (level >= LEVELS) {
            overflow.add(leaveLists(link));
            return;
        }
        linkAt(link, listIndex(tick, level));
    }

    /** The list of a tick after current whose highest digit differing from current's is at {@code level}. */
    private int listIndex(long tick, int level) {
        int slot = (int) (tick >>> (level * SLOT_BITS)) & (SLOTS - 1);
        return (level == 0 ? level0Row : level) * SLOTS + slot;
    }

    /** Puts arena slot {@code link} (its node in no list) at the head of list {@code index}. */
    private void linkAt(int link, int index) {
        int head = heads[index];
        long deadline = deadlineOf[link];
        // The staged slot's minimum also bounds the entries taken from it, so an empty list there does not reset it.
        boolean fresh = head == NONE && (index != stagedSource || !holdsTakenEntries());
        if (fresh || deadline - slotMinimum[index] < 0) {
            slotMinimum[index] = deadline;
        }
        if (head == NONE) {
            occupied[index / SLOTS] |= 1L << (index % SLOTS);
        } else {
            previousLink[head] = link;
        }
        nextLink[link] = head;
        previousLink[link] = NONE;
        listOf[link] = index;
        heads[index] = link;
        slotSize[index]++;
    }

    /**
     * Takes the first entry off list {@code index} (which has one) and returns its arena slot, still the node's: a
     * bulk move that relinks every entry it takes, so the list's bit and the staging state stay the caller's to settle
     * (unlike {@link #unlink}).
     */
    private int popHead(int index) {
        int link = heads[index];
        int next = nextLink[link];
        heads[index] = next;
        if (next != NONE) {
            previousLink[next] = NONE;
        }
        slotSize[index]--;
        return link;
    }

    void remove(TimerEntry node) {
        int location = node.enginePosition();
        if (location >= 0) {
            unlink(node, listOf[node.engineLink()]);
            dropLink(node);
        } else if (location == WheelPosition.DETACHED) {
            throw new IllegalStateException("not in this wheel: " + node);
        } else if (WheelPosition.arrayOf(location) == WheelPosition.OVERFLOW_HEAP) {
            overflow.remove(node);
        } else {
            reached.remove(node);
        }
        size--;
    }

    /** Takes {@code node} out of list {@code index}; it keeps its arena slot (the caller drops or re-links it). */
    private void unlink(TimerEntry node, int index) {
        int link = node.engineLink();
        int previous = previousLink[link];
        int next = nextLink[link];
        slotSize[index]--;
        int row = index / SLOTS;
        if (row == LEVELS - level0Row) {
            stagedCount--;
        }
        if (previous == NONE) {
            heads[index] = next;
            if (next == NONE) {
                occupied[row] &= ~(1L << (index % SLOTS));
                if (row == LEVELS - level0Row || index == stagedSource || index == deferred) {
                    endStagingIfEmpty();
                }
            }
        } else {
            nextLink[previous] = next;
        }
        if (next != NONE) {
            previousLink[next] = previous;
        }
        node.enginePosition(WheelPosition.DETACHED);
    }

    private boolean holdsTakenEntries() {
        return stagedCount > 0 || heads[deferred] != NONE;
    }

    /** Keeps the staged slot's bit set while entries taken from it wait; ends staging once nothing from it is left. */
    private void endStagingIfEmpty() {
        long bit = 1L << (stagedSource % SLOTS);
        if (holdsTakenEntries()) {
            occupied[stagedSource / SLOTS] |= bit;
        } else if (heads[stagedSource] == NONE) {
            occupied[stagedSource / SLOTS] &= ~bit;
            stagedSource = -1;
        }
    }

    /**
     * Moves time to {@code nowNanos} and adds every entry due by then to {@code due}, in deadline order, removing it
     * from the wheel.
     */
    void advance(long nowNanos, List<TimerEntry> due) {
        long target = tickOf(nowNanos);
        for (long event = nextEventTick(); event <= target; event = nextEventTick()) {
            current = event;
            if (eventLevel == SPREAD_EVENT) {
                spread(true, nowNanos); // before the first block any of them can be due in
            } else if (eventLevel == LEVELS) {
                long block = current >>> (LEVELS * SLOT_BITS);
                while (!overflow.isEmpty()
                        && tickOf(overflow.peek().deadlineNanos()) >>> (LEVELS * SLOT_BITS) == block) {
                    place(overflow.poll());
                }
            } else {
                int row = eventLevel == 0 ? level0Row : eventLevel;
                int index = row * SLOTS + eventSlot;
                int link = index == stagedSource ? startStagedBlock() : heads[index];
                heads[index] = NONE;
                slotSize[index] = 0;
                occupied[row] &= ~(1L << eventSlot);
                if (eventLevel == 0) { // every entry of the slot is of this very tick: sorted onto reached at once
                    reachTick(link);
                    continue;
                }
                while (link != NONE) {
                    int next = nextLink[link];
                    cascaded++;
                    placeLink(link); // strictly lower, or into reached if of this tick
                    link = next;
                }
            }
        }
        if (target > current) {
            current = target;
        }
        if (heads[spreading] != NONE) {
            spread(false, nowNanos);
        }
        if (current != stagedAtTick) { // once per tick: an engine may advance many times within one
            stagedAtTick = current;
            stage();
        }
        size -= reached.pollDue(nowNanos, due);
    }

    /**
     * Moves the list that starts at arena slot {@code link}, every entry of which is of tick {@code current}, to
     * {@link #reached} as one sorted batch (see ReachedQueue).
     */
    private void reachTick(int link) {
        while (link != NONE) {
            int next = nextLink[link];
            TimerEntry node = nodes[link];
            dropLink(node);
            reached.gather(node); // appendGathered sets its position
            link = next;
        }
        reached.appendGathered(origin + (current << tickShift));
    }

    /**
     * Takes some entries of the staged slot, choosing one if none is (invariant 5): at least {@link #STAGING_BUDGET},
     * and enough that one advance per tick would take the slot by half its remaining time.
     */
    private void stage() {
        if (stagedSource < 0) {
            for (int level = 1; level < LEVELS && stagedSource < 0; level++) {
                long bits = occupied[level];
                if (bits != 0) {
                    stagedSource = level * SLOTS + Long.numberOfTrailingZeros(bits);
                }
            }
            if (stagedSource < 0) {
                return;
            }
        }
        int level = stagedSource / SLOTS;
        int above = (level + 1) * SLOT_BITS;
        long event = ((current >>> above) << above) | ((long) (stagedSource % SLOTS) << (level * SLOT_BITS));
        long ticksLeft = Math.max(1, event - current);
        long budget = Math.max(STAGING_BUDGET, (2L * slotSize[stagedSource] + ticksLeft - 1) / ticksLeft);
        int stagingBase = (LEVELS - level0Row) * SLOTS;
        for (; budget > 0 && heads[stagedSource] != NONE; budget--) {
            int link = popHead(stagedSource);
            long tick = tickOf(deadlineOf[link]);
            if (tick >>> SLOT_BITS == event >>> SLOT_BITS) {
                cascaded++;
                stagedCount++;
                linkAt(link, stagingBase + (int) (tick & (SLOTS - 1)));
            } else {
                linkAt(link, deferred);
            }
        }
        // The slot's bit stays set while entries taken from it wait (invariant 5), even once its own list is empty.
    }

    /**
     * Current has just reached the staged slot's event, and the active level-0 row is empty (every event before it was
     * handled): the staging row becomes level 0. Its slot 0 is due at this very tick, so its entries join reached.
     *
     * @return the arena slot of the first entry still to cascade (the slot's late arrivals, chained by
     *     {@code nextLink}), or {@link #NONE}; the deferred entries start spreading instead
     */
    private int startStagedBlock() {
        level0Row = LEVELS - level0Row;
        int first = level0Row * SLOTS;
        int link = heads[first];
        heads[first] = NONE;
        slotSize[first] = 0;
        occupied[level0Row] &= ~1L;
        reachTick(link);
        // The deferred entries are all due after this block, so they are placed over the block's 64 ticks rather than
        // all now: at 100,000 timers of 500 ms, a level-2 boundary deferred ~90,000 of them, a ~10 ms cascade. The
        // list becomes the spreading one by trading roles with it (empty: the spread of the previous staged block
        // ends before this one's event), not by marking each entry: that pass touched ~90,000 entries no longer in
        // any cache under the lock, and events at the boundary were up to 19-28 ms late (docs/performance.md,
        // "Timers in the old generation").
        if (heads[deferred] != NONE) {
            int wasSpreading = spreading;
            spreading = deferred;
            deferred = wasSpreading;
            slotMinimum[spreading] = slotMinimum[stagedSource];
            spreadUntil = ((current >>> SLOT_BITS) + 1) << SLOT_BITS;
            spreadFromNanos = origin + (current << tickShift);
            spreadTotal = slotSize[spreading];
        }
        int arrivals = heads[stagedSource];
        stagedSource = -1;
        stagedCount = 0;
        return arrivals;
    }

    /**
     * Places some of the {@link #spreading} entries relative to current, at {@code nowNanos}, on a schedule: by the
     * middle of the time from the spread's start to the tick {@code spreadUntil - 1}, all of them, each advance
     * catching up with what the schedule says should be placed by now (at least 16). So the work is spread over every
     * advance rather than once per tick (an engine under load advances every few tens of microseconds, and 90,000
     * entries placed in one tick's advance held its lock for a millisecond), and a long advance does not make the
     * next one longer. All of them when {@code all}.
     */
    private void spread(boolean all, long nowNanos) {
        long budget;
        if (all) {
            budget = Long.MAX_VALUE;
        } else {
            long spanNanos = Math.max(1, (origin + ((spreadUntil - 1) << tickShift) - spreadFromNanos) / 2);
            double due = Math.min(1.0, Math.max(0, nowNanos - spreadFromNanos) / (double) spanNanos);
            long placed = spreadTotal - slotSize[spreading]; // cancellations count as placed: a slight lead
            // at most SPREAD_BUDGET_CAP per advance: after a long advance the schedule owes more, and catching up in
            // one go made the next advance as long
            budget = Math.min(SPREAD_BUDGET_CAP, Math.max(16, (long) Math.ceil(due * spreadTotal) - placed));
        }
        for (; budget > 0 && heads[spreading] != NONE; budget--) {
            int link = popHead(spreading);
            cascaded++;
            placeLink(link);
        }
    }

    /** The tick of the next event in the slots or the overflow heap, or {@link Long#MAX_VALUE}; sets the fields. */
    private long nextEventTick() {
        long spreadEvent = heads[spreading] == NONE ? Long.MAX_VALUE : spreadUntil - 1;
        if (spreadEvent <= current) {
            eventLevel = SPREAD_EVENT;
            return current; // overdue: empty it before anything else moves
        }
        long slotEvent = nextSlotOrOverflowTick();
        if (spreadEvent < slotEvent) {
            eventLevel = SPREAD_EVENT;
            return spreadEvent;
        }
        return slotEvent;
    }

    /** The tick of the next event in the slots or the overflow heap, or {@link Long#MAX_VALUE}; sets the fields. */
    private long nextSlotOrOverflowTick() {
        for (int level = 0; level < LEVELS; level++) {
            long bits = occupied[level == 0 ? level0Row : level];
            if (bits != 0) {
                int slot = Long.numberOfTrailingZeros(bits);
                int above = (level + 1) * SLOT_BITS;
                eventLevel = level;
                eventSlot = slot;
                return ((current >>> above) << above) | ((long) slot << (level * SLOT_BITS));
            }
        }
        if (!overflow.isEmpty()) {
            int top = LEVELS * SLOT_BITS;
            eventLevel = LEVELS;
            return (tickOf(overflow.peek().deadlineNanos()) >>> top) << top;
        }
        return Long.MAX_VALUE;
    }

    /**
     * The {@link System#nanoTime()} value to wait for: the earliest deadline among reached entries, or a lower bound
     * of the deadlines in the next slot to handle. Only meaningful when not {@link #isEmpty()}.
     */
    long nextWakeNanos() {
        long wake = Long.MAX_VALUE;
        boolean found = false;
        if (!reached.isEmpty()) {
            wake = reached.firstDeadline();
            found = true;
        }
        if (nextSlotOrOverflowTick() != Long.MAX_VALUE) {
            long bound = eventLevel == LEVELS
                    ? overflow.peek().deadlineNanos()
                    : slotMinimum[(eventLevel == 0 ? level0Row : eventLevel) * SLOTS + eventSlot];
            if (!found || bound - wake < 0) {
                wake = bound;
                found = true;
            }
        }
        if (heads[spreading] != NONE && (!found || slotMinimum[spreading] - wake < 0)) {
            wake = slotMinimum[spreading]; // a lower bound of the entries still to place
        }
        return wake;
    }

    /** Removes every entry and gives each node to {@code sink}. */
    void removeAll(Consumer<TimerEntry> sink) {
        for (int index = 0; index < heads.length; index++) {
            int link = heads[index];
            heads[index] = NONE;
            while (link != NONE) {
                int next = nextLink[link];
                TimerEntry node = nodes[link];
                node.enginePosition(WheelPosition.DETACHED);
                dropLink(node);
                sink.accept(node);
                link = next;
            }
        }
        java.util.Arrays.fill(occupied, 0);
        java.util.Arrays.fill(slotSize, 0);
        stagedSource = -1;
        stagedCount = 0;
        reached.removeAll(sink);
        overflow.removeAll(sink);
        size = 0;
    }

    /**
     * Where {@code node} is: its level (0..5; an entry taken from the staged slot is still at that slot's level),
     * {@code -2} reached, {@code -3} overflow, {@code -1} detached.
     */
    int levelOf(TimerEntry node) {
        int position = node.enginePosition();
        if (position >= 0) {
            int location = listOf[node.engineLink()];
            if (location == spreading) {
                return (63 - Long.numberOfLeadingZeros(tickOf(node.deadlineNanos()) ^ current))
                        / SLOT_BITS; // where it goes
            }
            int row = location / SLOTS;
            return row == level0Row
                    ? 0
                    : row == LEVELS - level0Row || location == deferred ? stagedSource / SLOTS : row;
        }
        if (position == WheelPosition.DETACHED) {
            return WheelPosition.DETACHED;
        }
        return WheelPosition.arrayOf(position) == WheelPosition.OVERFLOW_HEAP
                ? WheelPosition.OVERFLOW
                : WheelPosition.CURRENT;
    }

    /** Throws if an invariant of the implementation notes does not hold; O(n), for tests. */
    void checkInvariants() {
        reached.checkInvariants();
        int counted = reached.size() + overflow.size();
        int stagingRow = LEVELS - level0Row;
        int sourceLevel = stagedSource < 0 ? -1 : stagedSource / SLOTS;
        long stagedBlock = -1;
        if (stagedSource >= 0) {
            int above = (sourceLevel + 1) * SLOT_BITS;
            int digit = (int) (current >>> (sourceLevel * SLOT_BITS)) & (SLOTS - 1);
            if (sourceLevel == 0 || stagedSource % SLOTS <= digit) {
                throw new AssertionError("staged slot " + stagedSource + " behind current " + current);
            }
            stagedBlock =
                    (((current >>> above) << above) | ((long) (stagedSource % SLOTS) << (sourceLevel * SLOT_BITS)))
                            >>> SLOT_BITS;
        }
        int staged = 0;
        for (int index = 0; index < heads.length; index++) {
            if (index == spreading) {
                continue; // checked below
            }
            int row = index / SLOTS;
            int slot = index % SLOTS;
            boolean taken = row == stagingRow || index == deferred;
            if (taken && stagedSource < 0 && heads[index] != NONE) {
                throw new AssertionError("entries taken for staging while nothing is staged, at " + index);
            }
            int level = row == level0Row ? 0 : taken ? sourceLevel : row;
            int levelSlot = index == deferred ? stagedSource % SLOTS : slot;
            if (index != deferred) {
                boolean bit = (occupied[row] & (1L << slot)) != 0;
                boolean holdsTaken = index == stagedSource && holdsTakenEntries();
                if (bit != (heads[index] != NONE || holdsTaken)) {
                    throw new AssertionError("bitmap disagrees with slot " + row + "/" + slot);
                }
                int digit = (int) (current >>> (level * SLOT_BITS)) & (SLOTS - 1);
                if (row != stagingRow && bit && slot <= digit) {
                    throw new AssertionError("slot " + row + "/" + slot + " behind current digit " + digit);
                }
            }
            int length = 0;
            for (int link = heads[index]; link != NONE; link = nextLink[link]) {
                TimerEntry node = nodes[link];
                if (node.engineLink() != link) {
                    throw new AssertionError("arena slot " + link + " holds a node whose slot is " + node.engineLink());
                }
                if (deadlineOf[link] != node.deadlineNanos()) {
                    throw new AssertionError("arena slot " + link + " holds another deadline than its node's");
                }
                if (nextLink[link] != NONE && previousLink[nextLink[link]] != link) {
                    throw new AssertionError("list " + index + " is not doubly linked at arena slot " + link);
                }
                length++;
                long tick = tickOf(node.deadlineNanos());
                int above = (level + 1) * SLOT_BITS;
                boolean misplaced = row == stagingRow
                        ? tick >>> SLOT_BITS != stagedBlock || (tick & (SLOTS - 1)) != slot
                        : tick >>> above != current >>> above
                                || ((tick >>> (level * SLOT_BITS)) & (SLOTS - 1)) != levelSlot;
                if (node.enginePosition() != WheelPosition.LISTED || listOf[link] != index || misplaced) {
                    throw new AssertionError(
                            "entry misplaced at " + row + "/" + slot + ": tick " + tick + ", current " + current);
                }
                if (node.deadlineNanos() - slotMinimum[taken ? stagedSource : index] < 0) {
                    throw new AssertionError("slot minimum above an entry at " + row + "/" + slot);
                }
                if (taken && node.deadlineNanos() - slotMinimum[index] < 0 && index != deferred) {
                    throw new AssertionError("staging slot minimum above an entry at " + row + "/" + slot);
                }
            }
            if (length != slotSize[index]) {
                throw new AssertionError("slot " + row + "/" + slot + " counts " + slotSize[index] + " of " + length);
            }
            counted += length;
            if (row == stagingRow) {
                staged += length;
            }
        }
        if (staged != stagedCount) {
            throw new AssertionError("stagedCount " + stagedCount + " but " + staged + " staged entries");
        }
        int spreadCount = 0;
        for (int link = heads[spreading]; link != NONE; link = nextLink[link]) {
            TimerEntry node = nodes[link];
            if (node.engineLink() != link
                    || node.enginePosition() != WheelPosition.LISTED
                    || listOf[link] != spreading
                    || deadlineOf[link] != node.deadlineNanos()) {
                throw new AssertionError("a spreading entry at arena slot " + link + " says it is elsewhere");
            }
            if (tickOf(node.deadlineNanos()) < spreadUntil || node.deadlineNanos() - slotMinimum[spreading] < 0) {
                throw new AssertionError("a spreading entry is due before " + spreadUntil + " or below its minimum");
            }
            spreadCount++;
        }
        if (spreadCount != slotSize[spreading]) {
            throw new AssertionError("spreading counts " + slotSize[spreading] + " of " + spreadCount);
        }
        if (spreadCount > 0 && current >= spreadUntil - 1) {
            throw new AssertionError(
                    "entries still spreading at tick " + current + ", due to be placed by " + spreadUntil);
        }
        counted += spreadCount;
        int listed = counted - reached.size() - overflow.size();
        if (linksInUse - freeCount != listed) {
            throw new AssertionError(
                    (linksInUse - freeCount) + " arena slots in use for " + listed + " listed entries");
        }
        if (counted != size) {
            throw new AssertionError("size " + size + " but " + counted + " entries");
        }
    }
}
