package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;

/**
 * A small but real engine for the API module's tests (the provider bundles depend on this module, so their engines
 * cannot be used here). Favours obviousness over speed.
 */
final class ThreadPerTimerEngine implements TimerEngine, AutoCloseable {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final Map<TimerEntry, ScheduledFuture<?>> armed = new ConcurrentHashMap<>();
    private boolean drained;

    @Override
    public String name() {
        return "test";
    }

    @Override
    public synchronized boolean arm(TimerEntry entry) {
        if (drained) {
            return false;
        }
        long delay = entry.deadlineNanos() - System.nanoTime();
        armed.put(entry, scheduler.schedule(() -> expire(entry), delay, TimeUnit.NANOSECONDS));
        return true;
    }

    private void expire(TimerEntry entry) {
        boolean mine;
        synchronized (this) { // waits until arm has recorded the future
            mine = armed.remove(entry) != null;
        }
        if (mine) {
            entry.expire();
        }
    }

    @Override
    public boolean disarm(TimerEntry entry) {
        ScheduledFuture<?> future = armed.remove(entry);
        return future != null && future.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        workers.execute(task);
    }

    @Override
    public synchronized List<TimerEntry> drain() {
        drained = true;
        List<TimerEntry> pending = new ArrayList<>();
        for (TimerEntry entry : List.copyOf(armed.keySet())) {
            if (disarm(entry)) {
                pending.add(entry);
            }
        }
        return pending;
    }

    @Override
    public long dispatcherWakeups() {
        return 0;
    }

    @Override
    public int armedCount() {
        return armed.size();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        workers.shutdownNow();
    }
}
