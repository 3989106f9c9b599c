package org.rouse.timer.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An alternative timer engine kept for comparison (tests swap between it and the wheel; benchmarks measure against
 * it) and not registered as a service: deadlines on a one-thread {@link ScheduledThreadPoolExecutor} (its thread waits exactly
 * until the earliest deadline, never on a tick), handlers on a fixed worker pool.
 */
public final class ScheduledTimerEngine implements TimerEngine {

    /*
     * Implementation notes.
     *
     * Layout. `armed` maps each armed entry to its scheduled future.
     *
     * Invariants.
     * 1. Removing an entry from `armed` is the single point that decides between expiry, disarm and drain, so each
     *    arming leaves at most one way.
     * 2. `arm` and `drain` both run under `lifecycle`, which makes them linearizable as the SPI requires; a drained
     *    engine accepts entries again, a shut-down one never.
     *
     * Costs. The scheduler is built with remove-on-cancel, so a cancelled timer leaves the heap at once instead of at
     * its deadline. O(log n) per arm and disarm (the heap); WheelTimerEngine, the default, is O(1).
     */

    static final String NAME = "jdk-scheduled";

    private static final Logger LOG = LoggerFactory.getLogger(ScheduledTimerEngine.class);

    /** Serializes arm, drain and shutdown. */
    private final Object lifecycle = new Object();
    /** Armed entries and their futures ({@link #SCHEDULING} until known); removal decides who owns an arming. */
    private final Map<TimerEntry, Object> armed = new ConcurrentHashMap<>();
    /** Expiries delivered; written by the dispatcher thread. */
    private final AtomicLong wakeups = new AtomicLong();

    private ScheduledThreadPoolExecutor dispatcher;
    private ExecutorService workers;
    /** Set under {@link #lifecycle} by shutdown; final. */
    private boolean shutDown;

    private ScheduledTimerEngine() {}

    /** For tests and benchmarks: an engine started at once with {@code workerThreads} workers. */
    public static ScheduledTimerEngine started(int workerThreads) {
        ScheduledTimerEngine engine = new ScheduledTimerEngine();
        engine.start(workerThreads);
        return engine;
    }

    private void start(int workerThreads) {
        dispatcher = new ScheduledThreadPoolExecutor(1, new NamedThreads("rouse-timer-dispatcher"));
        dispatcher.setRemoveOnCancelPolicy(true);
        dispatcher.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        workers = Executors.newFixedThreadPool(workerThreads, new NamedThreads("rouse-timer-worker"));
        LOG.info("Timer engine {} started with {} worker threads", NAME, workerThreads);
    }

    /** Drains (if the front has not), stops the dispatcher, lets queued handlers finish and stops the workers. */
    public void shutdown() {
        synchronized (lifecycle) {
            shutDown = true;
        }
        drain();
        dispatcher.shutdownNow();
        NamedThreads.stopWorkers(workers, NamedThreads.SHUTDOWN_GRACE);
        try {
            dispatcher.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean arm(TimerEntry entry) {
        synchronized (lifecycle) {
            if (shutDown) {
                return false;
            }
            // Registered before scheduling so that an immediate expiry finds it.
            armed.put(entry, SCHEDULING);
            long delay = entry.deadlineNanos() - System.nanoTime();
            ScheduledFuture<?> future = dispatcher.schedule(() -> expire(entry), delay, TimeUnit.NANOSECONDS);
            if (!armed.replace(entry, SCHEDULING, future)) {
                future.cancel(false); // expired or disarmed meanwhile: drop the heap node now if it has not run
            }
            return true;
        }
    }

    private void expire(TimerEntry entry) {
        if (armed.remove(entry) != null) {
            wakeups.incrementAndGet();
            entry.expire();
        }
    }

    @Override
    public boolean disarm(TimerEntry entry) {
        Object future = armed.remove(entry);
        cancel(future);
        return future != null;
    }

    @Override
    public void execute(Runnable task) {
        workers.execute(task);
    }

    @Override
    public List<TimerEntry> drain() {
        synchronized (lifecycle) {
            List<TimerEntry> pending = new ArrayList<>();
            for (TimerEntry entry : List.copyOf(armed.keySet())) {
                Object future = armed.remove(entry);
                if (future != null) {
                    cancel(future);
                    pending.add(entry);
                }
            }
            return pending;
        }
    }

    @Override
    public long dispatcherWakeups() {
        return wakeups.get();
    }

    @Override
    public int armedCount() {
        return armed.size();
    }

    private static void cancel(Object future) {
        if (future instanceof ScheduledFuture<?> scheduled) {
            scheduled.cancel(false);
        }
    }

    /** Stands in for the future between registering an entry and scheduling it. */
    private static final Object SCHEDULING = new Object();
}
