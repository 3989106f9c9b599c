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
     * Layout. `armed` maps each armed entry to its Expiry: the task scheduled for that one arming, with its future.
     *
     * Invariants.
     * 1. Removing an entry's mapping from `armed` is the single point that decides between expiry, disarm and drain,
     *    so each arming leaves at most one way. An expiry removes only its own arming's mapping (remove(entry,
     *    expiry)): the front may arm the same entry again as soon as a disarm returned true (a timer's handle is its
     *    own arming), and an expiry task of the earlier arming that had already started must not take the new one.
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
    /** Armed entries and the expiry of their arming; removal decides who owns an arming. */
    private final Map<TimerEntry, Expiry> armed = new ConcurrentHashMap<>();
    /** Tests only: runs at the start of every expiry task, before it decides anything. */
    volatile Runnable expiryStarts = () -> {};
    /** Expiries delivered; written by the dispatcher thread. */
    private final AtomicLong wakeups = new AtomicLong();

    private ScheduledThreadPoolExecutor dispatcher;
    private ExecutorService workers;
    /** Made the workers; tells shutdown whether a handler calls it. Written once at start. */
    private NamedThreads workerThreadFactory;
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
        workerThreadFactory = new NamedThreads("rouse-timer-worker");
        workers = Executors.newFixedThreadPool(workerThreads, workerThreadFactory);
        LOG.info("Timer engine {} started with {} worker threads", NAME, workerThreads);
    }

    /** Drains (if the front has not), stops the dispatcher, lets queued handlers finish and stops the workers. */
    public void shutdown() {
        synchronized (lifecycle) {
            shutDown = true;
        }
        drain();
        dispatcher.shutdownNow();
        NamedThreads.stopWorkers(workers, workerThreadFactory, NamedThreads.SHUTDOWN_GRACE);
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
            Expiry expiry = new Expiry(entry);
            armed.put(entry, expiry); // registered before scheduling so that an immediate expiry finds it
            long delay = entry.deadlineNanos() - System.nanoTime();
            expiry.future = dispatcher.schedule(expiry, delay, TimeUnit.NANOSECONDS);
            if (armed.get(entry) != expiry) {
                expiry.future.cancel(false); // expired or disarmed meanwhile: drop the heap node now if it has not run
            }
            return true;
        }
    }

    private void expire(Expiry expiry) {
        expiryStarts.run();
        if (armed.remove(expiry.entry, expiry)) {
            wakeups.incrementAndGet();
            expiry.entry.expire();
        }
    }

    @Override
    public boolean disarm(TimerEntry entry) {
        Expiry expiry = armed.remove(entry);
        if (expiry == null) {
            return false;
        }
        cancel(expiry);
        return true;
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
                Expiry expiry = armed.remove(entry);
                if (expiry != null) {
                    cancel(expiry);
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

    private static void cancel(Expiry expiry) {
        ScheduledFuture<?> future = expiry.future;
        if (future != null) { // else arm has not scheduled it yet, and cancels it itself once it sees the mapping gone
            future.cancel(false);
        }
    }

    /** The task that expires one arming of an entry, and its future once scheduled. */
    private final class Expiry implements Runnable {
        final TimerEntry entry;
        /** Set by arm after scheduling; read by disarm and drain (null before: arm then cancels it itself). */
        volatile ScheduledFuture<?> future;

        Expiry(TimerEntry entry) {
            this.entry = entry;
        }

        @Override
        public void run() {
            expire(this);
        }
    }
}
