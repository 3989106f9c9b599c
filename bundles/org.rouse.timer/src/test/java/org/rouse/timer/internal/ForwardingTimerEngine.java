package org.rouse.timer.internal;

import java.util.List;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;

/**
 * A test engine that passes every call to a real engine; a test overrides the calls it watches or alters (records
 * arms, holds one at a gate, shifts a clock reading). The name says which engine runs underneath.
 */
abstract class ForwardingTimerEngine implements TimerEngine {

    final TimerEngine delegate;
    private final String prefix;

    ForwardingTimerEngine(String prefix, TimerEngine delegate) {
        this.prefix = prefix;
        this.delegate = delegate;
    }

    @Override
    public String name() {
        return prefix + "-" + delegate.name();
    }

    @Override
    public boolean arm(TimerEntry entry) {
        return delegate.arm(entry);
    }

    @Override
    public boolean disarm(TimerEntry entry) {
        return delegate.disarm(entry);
    }

    @Override
    public void execute(Runnable task) {
        delegate.execute(task);
    }

    @Override
    public List<TimerEntry> drain() {
        return delegate.drain();
    }

    @Override
    public long dispatcherWakeups() {
        return delegate.dispatcherWakeups();
    }

    @Override
    public int armedCount() {
        return delegate.armedCount();
    }
}
