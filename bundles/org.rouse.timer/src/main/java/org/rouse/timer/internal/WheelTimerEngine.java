package org.rouse.timer.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.config.ConfigCheck;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default timer engine: a {@link TimingWheel} and one dispatcher thread that parks exactly until the next
 * deadline, with handlers on a fixed worker pool.
 */
@Component(
        service = TimerEngine.class,
        configurationPid = WheelTimerEngine.PID,
        property = {TimerEngine.ENGINE_NAME + "=" + WheelTimerEngine.NAME})
@Designate(ocd = TimerEngineConfig.class)
public final class WheelTimerEngine implements TimerEngine {

    /*
     * Implementation notes.
     *
     * Layout. One lock (`lock`) guards the wheel (TimingWheel), `shutDown`, `parkedUntil` and `parkedForever`. `awake`
     * is false only while the dispatcher is (about to be) parked; written under the lock, read by the spin.
     *
     * Algorithm. arm, disarm and drain take the lock, so arm and drain are linearizable as the SPI requires and a
     * cancelled timer leaves the wheel at once. The dispatcher takes the lock to advance the wheel and collect what is
     * due, computes its next wake-up time, records it in `parkedUntil`, clears `awake` and parks after releasing the
     * lock; it calls TimerEntry.expire() outside the lock (the front's handle takes its own monitor afterwards). An arm
     * whose deadline is earlier than parkedUntil while the dispatcher is not awake sets awake and unparks it. With
     * nothing armed the dispatcher parks without a timeout. The optional spin parks until spin before the deadline and
     * busy-waits the rest, stopping early if an arm signals.
     *
     * Invariants.
     * 1. At most one unpark per park, none while the dispatcher is running (it re-reads the wheel under the lock before
     *    parking again), and none for a later deadline.
     * 2. No wake-up is lost: LockSupport's permit covers an unpark that lands between the unlock and the park.
     *
     * Costs. arm, disarm and drain do O(1) work under the lock (O(log k) for the few entries of the current tick).
     * Disarming never wakes the dispatcher: at worst it wakes once at the removed timer's deadline and finds nothing
     * due. Every return from a park counts as a wake-up (`dispatcherWakeups`), so idle cost is visible.
     */

    static final String PID = "org.rouse.timer.engine";
    static final String NAME = "wheel";
    static final int DEFAULT_WORKERS = 4;
    static final long DEFAULT_TICK_MICROS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(WheelTimerEngine.class);

    /** Guards the wheel, {@link #shutDown}, {@link #parkedUntil} and {@link #parkedForever}. */
    private final Object lock = new Object();
    /** Replaced (under the lock) only when the tick changes. */
    private TimingWheel wheel;
    /** Set under the lock by shutdown; final. */
    private boolean shutDown;
    /** Where the dispatcher is parked until; written by it under the lock, read by arms under the lock. */
    private long parkedUntil;
    /** Whether the dispatcher is parked with no deadline at all; as {@link #parkedUntil}. */
    private boolean parkedForever;
    /** False only while the dispatcher is (about to be) parked; written under the lock, read by the spin loop. */
    private volatile boolean awake = true;

    /** Returns from a park; incremented by the dispatcher. */
    private final LongAdder wakeups = new LongAdder();
    /** Unparks made by arms with an earlier deadline. */
    private final LongAdder signals = new LongAdder();
    /** Entries expired. */
    private final LongAdder expired = new LongAdder();

    /** Nanoseconds to spin before a deadline; written by configure. */
    private volatile long spinNanos;

    private Thread dispatcher;
    private ThreadPoolExecutor workers;
    /** The configuration in force; written by configure (DS serializes activate and modified). */
    private Settings settings;

    /** For DS. */
    public WheelTimerEngine() {}

    /** For tests and benchmarks: an engine started at once. */
    public static WheelTimerEngine started(int workerThreads, long spinMicros, long tickMicros) {
        WheelTimerEngine engine = new WheelTimerEngine();
        engine.start(new Settings(workerThreads, spinMicros, tickMicros));
        return engine;
    }

    /** For tests and benchmarks: an engine with the default tick and no spin. */
    public static WheelTimerEngine started(int workerThreads) {
        return started(workerThreads, 0, DEFAULT_TICK_MICROS);
    }

    /** A validated engine configuration. */
    record Settings(int workerThreads, long spinMicros, long tickMicros) {
        static final Settings DEFAULTS = new Settings(DEFAULT_WORKERS, 0, DEFAULT_TICK_MICROS);

        static Settings from(TimerEngineConfig config, ConfigCheck check) {
            long threads = check.inRange("worker.threads", config.worker_threads(), 1, 1024);
            long spin = check.inRange("spin.micros", config.spin_micros(), 0, 1000);
            long tick = check.inRange("tick.micros", config.tick_micros(), 1, 1_000_000);
            return check.passed() ? new Settings((int) threads, spin, tick) : null;
        }

        /** The tick as a power of two: {@code 2^shift} ns is the largest not above {@code tickMicros}. */
        int tickShift() {
            return 63 - Long.numberOfLeadingZeros(tickMicros * 1_000);
        }
    }

    @Activate
    void activate(TimerEngineConfig config) {
        Settings next = validate(config);
        start(next == null ? Settings.DEFAULTS : next);
    }

    @Modified
    void modified(TimerEngineConfig config) {
        Settings next = validate(config);
        if (next != null) {
            apply(next);
        }
    }

    private static Settings validate(TimerEngineConfig config) {
        ConfigCheck check = new ConfigCheck(PID);
        Settings next = Settings.from(config, check);
        if (next == null) {
            LOG.error(check.rejection());
        }
        return next;
    }

    private void start(Settings first) {
        settings = first;
        spinNanos = TimeUnit.MICROSECONDS.toNanos(first.spinMicros());
        wheel = new TimingWheel(System.nanoTime(), first.tickShift());
        workers = new ThreadPoolExecutor(
                first.workerThreads(),
                first.workerThreads(),
                0,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                new NamedThreads("rouse-timer-worker"));
        dispatcher = new Thread(this::dispatch, "rouse-timer-dispatcher-0");
        dispatcher.setDaemon(true);
        dispatcher.start();
        LOG.info("Timer engine {} started: {}", NAME, first);
    }

    /** Applies a new configuration in place: pool size, spin, and (by re-placing every entry) the tick. */
    private void apply(Settings next) {
        int threads = next.workerThreads();
        if (threads > workers.getMaximumPoolSize()) {
            workers.setMaximumPoolSize(threads);
            workers.setCorePoolSize(threads);
        } else {
            workers.setCorePoolSize(threads);
            workers.setMaximumPoolSize(threads);
        }
        spinNanos = TimeUnit.MICROSECONDS.toNanos(next.spinMicros());
        if (next.tickShift() != settings.tickShift()) {
            synchronized (lock) {
                TimingWheel rebuilt = new TimingWheel(System.nanoTime(), next.tickShift());
                wheel.removeAll(rebuilt::add);
                wheel = rebuilt;
                markDispatcherAwakeLocked();
            }
            LockSupport.unpark(dispatcher);
        }
        settings = next;
        LOG.info("Timer engine {} reconfigured: {}", NAME, next);
    }

    @Deactivate
    void deactivate() {
        shutdown();
    }

    /**
     * Drains (if the front has not), stops the dispatcher and stops the workers, letting running handlers finish for
     * up to {@link NamedThreads#SHUTDOWN_GRACE} before interrupting them.
     */
    public void shutdown() {
        shutdown(NamedThreads.SHUTDOWN_GRACE);
    }

    /** As {@link #shutdown()}, with {@code grace} for running handlers (tests use a short one). */
    void shutdown(java.time.Duration grace) {
        synchronized (lock) {
            if (shutDown) {
                return;
            }
            shutDown = true;
            wheel.removeAll(node -> node.entry.engineSlot(null));
        }
        LockSupport.unpark(dispatcher);
        try {
            dispatcher.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        NamedThreads.stopWorkers(workers, grace);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean arm(TimerEntry entry) {
        boolean signal;
        synchronized (lock) {
            if (shutDown) {
                return false;
            }
            WheelNode node = new WheelNode(this, entry);
            wheel.add(node);
            entry.engineSlot(node);
            signal = !awake && (parkedForever || node.deadlineNanos - parkedUntil < 0);
            if (signal) {
                markDispatcherAwakeLocked();
            }
        }
        if (signal) {
            signals.increment();
            LockSupport.unpark(dispatcher);
        }
        return true;
    }

    private void markDispatcherAwakeLocked() {
        awake = true;
    }

    @Override
    public boolean disarm(TimerEntry entry) {
        synchronized (lock) {
            if (entry.engineSlot() instanceof WheelNode node && node.engine == this && node.isAttached()) {
                wheel.remove(node);
                entry.engineSlot(null);
                return true;
            }
            return false;
        }
    }

    @Override
    public void execute(Runnable task) {
        workers.execute(task);
    }

    @Override
    public List<TimerEntry> drain() {
        List<TimerEntry> pending = new ArrayList<>();
        synchronized (lock) {
            wheel.removeAll(node -> {
                node.entry.engineSlot(null);
                pending.add(node.entry);
            });
        }
        return pending;
    }

    @Override
    public long dispatcherWakeups() {
        return wakeups.sum();
    }

    /** Early wake-ups caused by arming an earlier deadline (a subset of {@link #dispatcherWakeups()}). */
    public long signals() {
        return signals.sum();
    }

    /** Entries expired so far. */
    public long expired() {
        return expired.sum();
    }

    @Override
    public int armedCount() {
        synchronized (lock) {
            return wheel.size();
        }
    }

    /** The dispatcher thread's loop. */
    private void dispatch() {
        List<TimerEntry> due = new ArrayList<>();
        for (; ; ) {
            long waitNanos;
            boolean forever;
            synchronized (lock) {
                if (shutDown) {
                    return;
                }
                awake = true;
                long now = System.nanoTime();
                wheel.advance(now, due);
                forever = wheel.isEmpty();
                waitNanos = forever ? 0 : Math.max(1, wheel.nextWakeNanos() - now);
                if (due.isEmpty()) {
                    parkedForever = forever;
                    parkedUntil = now + waitNanos;
                    awake = false;
                }
            }
            if (!due.isEmpty()) {
                expire(due);
                continue; // the clock moved while expiring: look again before parking
            }
            if (forever) {
                LockSupport.park(this);
            } else {
                waitFor(waitNanos);
            }
            Thread.interrupted(); // a stray interrupt would make every later park return at once: a busy loop
            wakeups.increment();
        }
    }

    private void waitFor(long waitNanos) {
        long spin = spinNanos;
        if (spin == 0) {
            LockSupport.parkNanos(this, waitNanos);
            return;
        }
        long deadline = System.nanoTime() + waitNanos;
        if (waitNanos > spin) {
            LockSupport.parkNanos(this, waitNanos - spin);
        }
        while (!awake && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }

    private void expire(List<TimerEntry> due) {
        for (TimerEntry entry : due) {
            try {
                entry.expire();
            } catch (RuntimeException | LinkageError e) {
                LOG.error("Timer entry {} failed to expire", entry, e); // the SPI says never; keep the dispatcher
            }
        }
        expired.add(due.size());
        due.clear();
    }

    /** Whether the dispatcher has decided to park (and has not been signalled since). */
    boolean dispatcherParked() {
        return !awake;
    }

    /** The configuration in force. */
    Settings settings() {
        return settings;
    }

    @Override
    public String toString() {
        return "WheelTimerEngine[" + settings + "]";
    }
}
