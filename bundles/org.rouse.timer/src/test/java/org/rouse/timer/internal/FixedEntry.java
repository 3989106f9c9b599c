package org.rouse.timer.internal;

/** An engine entry with a fixed deadline that does nothing when it expires (subclasses record it). */
class FixedEntry extends EngineSlots {
    final long deadline;

    FixedEntry(long deadline) {
        this.deadline = deadline;
    }

    @Override
    public long deadlineNanos() {
        return deadline;
    }

    @Override
    public void expire() {}
}
