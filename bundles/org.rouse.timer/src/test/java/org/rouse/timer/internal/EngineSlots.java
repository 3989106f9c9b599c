package org.rouse.timer.internal;

import org.rouse.timer.spi.TimerEntry;

/** The engine's bookkeeping fields of a test entry (slot, position, link), as the front's arming keeps them. */
abstract class EngineSlots implements TimerEntry {
    private Object slot;
    private int position;
    private int link;

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
        return position;
    }

    @Override
    public void enginePosition(int position) {
        this.position = position;
    }

    @Override
    public int engineLink() {
        return link;
    }

    @Override
    public void engineLink(int link) {
        this.link = link;
    }
}
