package org.rouse.timer.internal;

import org.rouse.timer.spi.TimerEntry;

/**
 * The wheel's intrusive node for one armed {@link TimerEntry}, kept in the entry's
 * {@linkplain TimerEntry#engineSlot() engine slot} so that disarming finds it in O(1).
 *
 * <p>Every field is read and written only by the thread holding the owning engine's lock.
 *
 * <p>A node stays in its entry's slot after the entry expires, detached; when the front arms the same entry again (a
 * periodic timer's next period) the engine re-uses it instead of allocating one.
 */
final class WheelNode {

    /** Not in any structure: expired, disarmed or drained. */
    static final int DETACHED = -1;
    /** In the wheel's heap of entries whose tick has been reached (as {@link TimingWheel#levelOf} reports it). */
    static final int CURRENT = -2;
    /** In the overflow heap of entries beyond the wheel's span (as {@link TimingWheel#levelOf} reports it). */
    static final int OVERFLOW = -3;

    /** The engine whose wheel holds this node; lets an engine ignore another engine's node. */
    final Object engine;

    final TimerEntry entry;
    /** The entry's deadline when it was armed here; set again when a detached node is re-used for a new arming. */
    long deadlineNanos;
    /**
     * {@code level * 64 + slot} while in a slot list, {@link #DETACHED}, or, while in a {@link DeadlineHeap},
     * {@code -2 - (index * 2 + heap)} with {@code heap} 0 for the reached heap and 1 for the overflow heap: one int
     * holds both where the node is and its heap position (see {@link #inHeap} and {@link #heapIndex}).
     */
    int location = DETACHED;
    /**
     * The wheel's arena slot holding this node's slot-list links ({@link TimingWheel#NONE} while the node is in no
     * list): the links themselves are ints in the wheel's arrays, so moving a node writes no reference into it.
     */
    int link = TimingWheel.NONE;

    WheelNode(Object engine, TimerEntry entry) {
        this.engine = engine;
        this.entry = entry;
        this.deadlineNanos = entry.deadlineNanos();
    }

    boolean isAttached() {
        return location != DETACHED;
    }

    /** The {@code location} of a node at {@code index} in heap {@code heap} (0 reached, 1 overflow). */
    static int inHeap(int heap, int index) {
        return -2 - ((index << 1) | heap);
    }

    /** Which heap a node whose {@code location} is below {@link #DETACHED} is in: 0 reached, 1 overflow. */
    static int heapOf(int location) {
        return (-2 - location) & 1;
    }

    /** The position in its heap of a node whose {@code location} is below {@link #DETACHED}. */
    static int heapIndex(int location) {
        return (-2 - location) >>> 1;
    }
}
