package org.rouse.timer.internal;

import org.rouse.timer.spi.TimerEntry;

/**
 * Where the wheel keeps an armed {@link TimerEntry}: the encoding of the entry's
 * {@linkplain TimerEntry#enginePosition() engine position}. The entry is the wheel's node itself (its position and
 * {@linkplain TimerEntry#engineLink() link} are the node's fields, its {@linkplain TimerEntry#engineSlot() slot}
 * names the engine holding it), so arming allocates nothing and disarming finds the entry in O(1).
 *
 * <p>The position is {@link #LISTED} while the entry is in a slot list (its link then names its arena slot in the
 * wheel's arrays, which also say which list: moving it between lists never touches the entry), {@link #DETACHED}
 * while it is in no structure, or, while it is in one of the wheel's
 * arrays of entries outside the slot lists, {@code -2 - (index * 4 + array)} with {@code array}
 * {@link #REACHED_HEAP}, {@link #OVERFLOW_HEAP} or {@link #REACHED_RUN} (see {@link ReachedQueue}): one int holds
 * both where the entry is and its index there.
 */
final class WheelPosition {

    /** In one of the wheel's slot lists; which one its arena slot says. */
    static final int LISTED = 0;

    /** Not in any structure: expired, disarmed, drained, or never armed in this engine. */
    static final int DETACHED = -1;
    /** In the wheel's entries whose tick has been reached, run or heap (as {@link TimingWheel#levelOf} reports it). */
    static final int CURRENT = -2;
    /** In the overflow heap of entries beyond the wheel's span (as {@link TimingWheel#levelOf} reports it). */
    static final int OVERFLOW = -3;

    /** The reached entries' heap: those reached on their own, not with a whole slot (see {@link ReachedQueue}). */
    static final int REACHED_HEAP = 0;
    /** The heap of entries beyond the wheel's span. */
    static final int OVERFLOW_HEAP = 1;
    /** The reached entries' sorted run: those reached a tick at a time (see {@link ReachedQueue}). */
    static final int REACHED_RUN = 2;

    private WheelPosition() {}

    /** The position of an entry at {@code index} in array {@code array} ({@link #REACHED_HEAP} ...). */
    static int inArray(int array, int index) {
        return -2 - ((index << 2) | array);
    }

    /** Which array an entry whose position is below {@link #DETACHED} is in: {@link #REACHED_HEAP} ... */
    static int arrayOf(int position) {
        return (-2 - position) & 3;
    }

    /** The index in its array of an entry whose position is below {@link #DETACHED}. */
    static int arrayIndex(int position) {
        return (-2 - position) >>> 2;
    }
}
