package org.rouse.timer.internal;

import org.rouse.timer.spi.TimerEntry;

/**
 * The wheel's intrusive node for one armed {@link TimerEntry}, kept in the entry's
 * {@linkplain TimerEntry#engineSlot() engine slot} so that disarming finds it in O(1).
 *
 * <p>Every field is read and written only by the thread holding the owning engine's lock.
 */
final class WheelNode {

    /** Not in any structure: expired, disarmed or drained. */
    static final int DETACHED = -1;
    /** In the wheel's heap of entries whose tick has been reached. */
    static final int CURRENT = -2;
    /** In the overflow heap of entries beyond the wheel's span. */
    static final int OVERFLOW = -3;

    /** The engine whose wheel holds this node; lets an engine ignore another engine's node. */
    final Object engine;

    final TimerEntry entry;
    final long deadlineNanos;
    /** {@link #DETACHED}, {@link #CURRENT}, {@link #OVERFLOW}, or {@code level * 64 + slot} while in a slot list. */
    int location = DETACHED;
    /** Neighbours in a slot's doubly linked list. */
    WheelNode previous;

    WheelNode next;
    /** Position in a {@link DeadlineHeap} while {@code location} is {@link #CURRENT} or {@link #OVERFLOW}. */
    int heapIndex = -1;

    WheelNode(Object engine, TimerEntry entry) {
        this.engine = engine;
        this.entry = entry;
        this.deadlineNanos = entry.deadlineNanos();
    }

    boolean isAttached() {
        return location != DETACHED;
    }
}
