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
     * are in `reached`, a small min-heap on exact deadlines, which is what lets the dispatcher wake at a timer's own
     * deadline rather than at a tick boundary. Entries whose highest differing digit is above the top level are in
     * `overflow`, a min-heap; they enter the wheel when current reaches their top block.
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
     * 4. `size` counts entries in slots, `reached` and `overflow`.
     *
     * Costs. `add` and `remove` are O(1) for slots (list link, bitmap bit) and O(log n) only in the two heaps, which
     * hold the entries of the current tick and those beyond the wheel's span (2^36 ticks). Each entry is cascaded at
     * most once per level.
     */

    static final int LEVELS = 6;
    static final int SLOT_BITS = 6;
    static final int SLOTS = 1 << SLOT_BITS;

    private final long origin;
    private final int tickShift;

    /** The last tick reached; every entry with a tick at or before it is in {@link #reached}. */
    private long current;

    private final WheelNode[] heads = new WheelNode[LEVELS * SLOTS];
    private final long[] slotMinimum = new long[LEVELS * SLOTS];
    private final long[] occupied = new long[LEVELS];
    private final DeadlineHeap reached = new DeadlineHeap(0);
    private final DeadlineHeap overflow = new DeadlineHeap(1);
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

    void add(WheelNode node) {
        place(node);
        size++;
    }

    private void place(WheelNode node) {
        long tick = tickOf(node.deadlineNanos);
        if (tick <= current) {
            reached.add(node);
            return;
        }
        int level = (63 - Long.numberOfLeadingZeros(tick ^ current)) / SLOT_BITS;
        if (level >= LEVELS) {
            overflow.add(node);
            return;
        }
        int slot = (int) (tick >>> (level * SLOT_BITS)) & (SLOTS - 1);
        int index = level * SLOTS + slot;
        WheelNode head = heads[index];
        if (head == null) {
            occupied[level] |= 1L << slot;
            slotMinimum[index] = node.deadlineNanos;
        } else {
            head.previous = node;
            if (node.deadlineNanos - slotMinimum[index] < 0) {
                slotMinimum[index] = node.deadlineNanos;
            }
        }
        node.next = head;
        node.previous = null;
        node.location = index;
        heads[index] = node;
    }

    void remove(WheelNode node) {
        int location = node.location;
        if (location >= 0) {
            unlink(node, location);
        } else if (location == WheelNode.DETACHED) {
            throw new IllegalStateException("not in this wheel: " + node.entry);
        } else if (WheelNode.heapOf(location) == 0) {
            reached.remove(node);
        } else {
            overflow.remove(node);
        }
        size--;
    }

    private void unlink(WheelNode node, int index) {
        WheelNode previous = node.previous;
        WheelNode next = node.next;
        if (previous == null) {
            heads[index] = next;
            if (next == null) {
                occupied[index / SLOTS] &= ~(1L << (index % SLOTS));
            }
        } else {
            previous.next = next;
        }
        if (next != null) {
            next.previous = previous;
        }
        node.previous = null;
        node.next = null;
        node.location = WheelNode.DETACHED;
    }

    /**
     * Moves time to {@code nowNanos} and adds every entry due by then to {@code due}, in deadline order, removing it
     * from the wheel.
     */
    void advance(long nowNanos, List<TimerEntry> due) {
        long target = tickOf(nowNanos);
        for (long event = nextEventTick(); event <= target; event = nextEventTick()) {
            current = event;
            if (eventLevel == LEVELS) {
                long block = current >>> (LEVELS * SLOT_BITS);
                while (!overflow.isEmpty() && tickOf(overflow.peek().deadlineNanos) >>> (LEVELS * SLOT_BITS) == block) {
                    place(overflow.poll());
                }
            } else {
                int index = eventLevel * SLOTS + eventSlot;
                WheelNode node = heads[index];
                heads[index] = null;
                occupied[eventLevel] &= ~(1L << eventSlot);
                while (node != null) {
                    WheelNode next = node.next;
                    node.next = null;
                    node.previous = null;
                    if (eventLevel > 0) {
                        cascaded++;
                    }
                    place(node); // level 0: tick == current, so into reached; else strictly lower
                    node = next;
                }
            }
        }
        if (target > current) {
            current = target;
        }
        while (!reached.isEmpty() && reached.peek().deadlineNanos - nowNanos <= 0) {
            due.add(reached.poll().entry);
            size--;
        }
    }

    /** The tick of the next event in the slots or the overflow heap, or {@link Long#MAX_VALUE}; sets the fields. */
    private long nextEventTick() {
        for (int level = 0; level < LEVELS; level++) {
            long bits = occupied[level];
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
            return (tickOf(overflow.peek().deadlineNanos) >>> top) << top;
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
            wake = reached.peek().deadlineNanos;
            found = true;
        }
        if (nextEventTick() != Long.MAX_VALUE) {
            long bound =
                    eventLevel == LEVELS ? overflow.peek().deadlineNanos : slotMinimum[eventLevel * SLOTS + eventSlot];
            if (!found || bound - wake < 0) {
                wake = bound;
            }
        }
        return wake;
    }

    /** Removes every entry and gives each node to {@code sink}. */
    void removeAll(Consumer<WheelNode> sink) {
        for (int index = 0; index < heads.length; index++) {
            WheelNode node = heads[index];
            heads[index] = null;
            while (node != null) {
                WheelNode next = node.next;
                node.next = null;
                node.previous = null;
                node.location = WheelNode.DETACHED;
                sink.accept(node);
                node = next;
            }
        }
        java.util.Arrays.fill(occupied, 0);
        reached.removeAll(sink);
        overflow.removeAll(sink);
        size = 0;
    }

    /** Where {@code node} is: its level (0..5), {@code -2} reached, {@code -3} overflow, {@code -1} detached. */
    static int levelOf(WheelNode node) {
        int location = node.location;
        if (location >= 0) {
            return location / SLOTS;
        }
        if (location == WheelNode.DETACHED) {
            return WheelNode.DETACHED;
        }
        return WheelNode.heapOf(location) == 0 ? WheelNode.CURRENT : WheelNode.OVERFLOW;
    }

    /** Throws if an invariant of the implementation notes does not hold; O(n), for tests. */
    void checkInvariants() {
        int counted = reached.size() + overflow.size();
        for (int level = 0; level < LEVELS; level++) {
            int digit = (int) (current >>> (level * SLOT_BITS)) & (SLOTS - 1);
            for (int slot = 0; slot < SLOTS; slot++) {
                int index = level * SLOTS + slot;
                boolean bit = (occupied[level] & (1L << slot)) != 0;
                if (bit != (heads[index] != null)) {
                    throw new AssertionError("bitmap disagrees with slot " + level + "/" + slot);
                }
                if (bit && slot <= digit) {
                    throw new AssertionError("slot " + level + "/" + slot + " behind current digit " + digit);
                }
                for (WheelNode node = heads[index]; node != null; node = node.next) {
                    counted++;
                    long tick = tickOf(node.deadlineNanos);
                    int above = (level + 1) * SLOT_BITS;
                    if (node.location != index
                            || tick >>> above != current >>> above
                            || ((tick >>> (level * SLOT_BITS)) & (SLOTS - 1)) != slot) {
                        throw new AssertionError(
                                "entry misplaced at " + level + "/" + slot + ": tick " + tick + ", current " + current);
                    }
                    if (node.deadlineNanos - slotMinimum[index] < 0) {
                        throw new AssertionError("slot minimum above an entry at " + level + "/" + slot);
                    }
                }
            }
        }
        if (counted != size) {
            throw new AssertionError("size " + size + " but " + counted + " entries");
        }
    }
}
