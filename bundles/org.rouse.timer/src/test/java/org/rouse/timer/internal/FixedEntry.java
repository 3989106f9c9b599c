package org.rouse.timer.internal;

import org.rouse.timer.spi.TimerEntry;

/** An engine entry with a fixed deadline that does nothing when it expires (subclasses record it). */
class FixedEntry implements TimerEntry {
    final long deadline;
    private Object slot;
    /** The engine's position and link for this entry; as the engine slot. */
    private int enginePosition;

    private int engineLink;

    FixedEntry(long deadline) {
        this.deadline = deadline;
    }

    @Override
    public long deadlineNanos() {
        return deadline;
    }

    @Override
    public void expire() {}

    @Override
    public Object engineSlot() {
        return slot;
    }

    @Override
    public void engineSlot(Object slot) {
        this.slot = slot;
    }

    @Override
    public int enginePosition() {

        return enginePosition;
    }

    @Override
    public void enginePosition(int position) {

        enginePosition = position;
    }

    @Override
    public int engineLink() {

        return engineLink;
    }

    @Override
    public void engineLink(int link) {

        engineLink = link;
    }
}
