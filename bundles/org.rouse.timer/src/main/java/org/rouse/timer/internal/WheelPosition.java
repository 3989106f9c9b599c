package org.rouse.timer.internal;

import org.rouse.timer.spi.TimerEntry;

/**
 * Where the wheel keeps an armed {@link TimerEntry}: the encoding of the entry's
 * {@linkplain TimerEntry#enginePosition() engine position}. The entry is the wheel's node itself (its position and
 * {@linkplain TimerEntry#engineLink() link} are the node's fields, its {@linkplain TimerEntry#engineSlot() slot}
 * names the engine holding it), so arming allocates nothing and disarming finds the entry in O(1).
 *
 * <p>The position is {@code level * 64 + slot} while the entry is in a slot list (its link then names its arena slot
 * in the wheel's link arrays), {@link #DETACHED} while it is in no structure, or, while it is in a
 * {@link DeadlineHeap}, {@code -2 - (index * 2 + heap)} with {@code heap} 0 for the reached heap and 1 for the
 * overflow heap: one int holds both where the entry is and its heap position.
 */
final class WheelPosition {

    /** Not in any structure: expired, disarmed, drained, or never armed in this engine. */
    static final int DETACHED = -1;
    /** In the wheel's heap of entries whose tick has been reached (as {@link TimingWheel#levelOf} reports it). */
    static final int CURRENT = -2;
    /** In the overflow heap of entries beyond the wheel's span (as {@link TimingWheel#levelOf} reports it). */
    static final int OVERFLOW = -3;

    private WheelPosition() {}

    /** The position of an entry at {@code index} in heap {@code heap} (0 reached, 1 overflow). */
    static int inHeap(int heap, int index) {
        return -2 - ((index << 1) | heap);
    }

    /** Which heap an entry whose position is below {@link #DETACHED} is in: 0 reached, 1 overflow. */
    static int heapOf(int position) {
        return (-2 - position) & 1;
    }

    /** The index in its heap of an entry whose position is below {@link #DETACHED}. */
    static int heapIndex(int position) {
        return (-2 - position) >>> 1;
    }
}
