package org.rouse.api.internal.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import org.rouse.api.internal.Arguments;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerHandler;
import org.rouse.timer.TimerOwner;

/**
 * A named group of timers whose handlers run one at a time.
 */
final class Owner implements TimerOwner {

    /*
     * Implementation notes.
     *
     * Layout. Every timer that may still run is in an intrusive doubly linked list (TimerHandle.livePrevious and
     * liveNext, from `liveHead`) guarded by `liveLock`, so that `close` can cancel them; the list costs two references
     * in each handle instead of a hash set's node. The lock is taken inside a handle's monitor (remember, forget) and
     * never held while taking one: close and pendingCount copy the list and work on the copy.
     *
     * Invariants.
     * 1. No timer outlives its owner: a schedule or reschedule racing with close re-checks `closed` after adding its
     *    timer and arming it, and cancels it itself (the argument is in TimerHandle's notes).
     * 2. Once close has returned, no handler of this owner starts: events already in `queue` check `closed` before
     *    their handler starts. A handler running at that moment is not waited for (close may be called from it).
     */

    private static final VarHandle LATE_RUNS;
    private static final VarHandle LATE_SUM_NANOS;
    private static final VarHandle LATE_MAX_NANOS;
    private static final VarHandle RUNNING;
    private static final VarHandle RUNNING_SINCE_NANOS;
    private static final VarHandle BUSY;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LATE_RUNS = lookup.findVarHandle(Owner.class, "lateRuns", long.class);
            LATE_SUM_NANOS = lookup.findVarHandle(Owner.class, "lateSumNanos", long.class);
            LATE_MAX_NANOS = lookup.findVarHandle(Owner.class, "lateMaxNanos", long.class);
            RUNNING = lookup.findVarHandle(Owner.class, "running", TimerHandle.class);
            RUNNING_SINCE_NANOS = lookup.findVarHandle(Owner.class, "runningSinceNanos", long.class);
            BUSY = lookup.findVarHandle(Owner.class, "busy", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final BundleTimerView view;
    private final String name;
    private final SerialQueue queue;
    /** Guards the list of timers that may still run. */
    private final Object liveLock = new Object();
    /** The first timer that may still run, or null; guarded by {@link #liveLock}. */
    private TimerHandle liveHead;
    /** Executor views not yet terminated; closed with the owner. */
    private final Set<OwnerExecutor> executors = ConcurrentHashMap.newKeySet();
    /** Set once by close; read by every schedule. */
    private volatile boolean closed;
    /*
     * Monitoring: the lateness fields are written only by the thread running this owner's queue (one at a time:
     * SerialQueue's state CAS orders successive runners), with release stores of plain-read values (one writer needs
     * no read-modify-write), and zeroed by resetStatistics; the shell and JMX read them with volatile loads. A reset
     * racing with a handler start may keep that one sample.
     */
    /** Handler runs recorded since creation or the last reset; accessed through LATE_RUNS. */
    private long lateRuns;
    /** Sum of their lateness in ns; accessed through LATE_SUM_NANOS. */
    private long lateSumNanos;
    /** The largest of their lateness in ns; accessed through LATE_MAX_NANOS. */
    private long lateMaxNanos;
    /*
     * The "running now" record below has one writer at a time, the thread running this owner's queue, and is read by
     * the shell and JMX: opaque stores of `running` and `runningSinceNanos`, then a release store of `busy`; a reader
     * loads `busy` with acquire first. Volatile stores would cost a full fence each, three per firing, for a
     * monitoring read that needs only this order.
     */
    /**
     * The timer whose handler ran last (runs now while {@link #busy}), or null; written before {@link #busy} is set,
     * and only when it changes: a reference store on every run would cost a G1 card mark each time.
     */
    @SuppressWarnings("unused") // accessed through RUNNING
    private TimerHandle running;
    /** When that handler started (System.nanoTime()); written before {@link #busy} is set. */
    @SuppressWarnings("unused") // accessed through RUNNING_SINCE_NANOS
    private long runningSinceNanos;
    /** Whether the handler of {@link #running} runs now; set after it starts, cleared after it returns. */
    @SuppressWarnings("unused") // accessed through BUSY
    private boolean busy;
    /**
     * The event every firing of this owner is handed, filled in anew each time (see {@link Event}); null until the
     * first firing. Plain: written and read only by the thread running this owner's queue, one at a time.
     */
    private Event event;

    Owner(BundleTimerView view, String name) {
        this.view = view;
        this.name = name;
        this.queue = new SerialQueue(view.dispatch());
    }

    BundleTimerView view() {
        return view;
    }

    SerialQueue queue() {
        return queue;
    }

    /** Takes {@code timer} out of the live list if it is there: it has fired for good or is cancelled. */
    void forget(TimerHandle timer) {
        synchronized (liveLock) {
            if (timer.livePrevious == null && liveHead != timer) {
                return; // not in the list
            }
            TimerHandle previous = timer.livePrevious;
            TimerHandle next = timer.liveNext;
            if (previous == null) {
                liveHead = next;
            } else {
                previous.liveNext = next;
            }
            if (next != null) {
                next.livePrevious = previous;
            }
            timer.livePrevious = null;
            timer.liveNext = null;
        }
    }

    /** A copy of the live list. */
    private List<TimerHandle> liveTimers() {
        synchronized (liveLock) {
            List<TimerHandle> copy = new ArrayList<>();
            for (TimerHandle timer = liveHead; timer != null; timer = timer.liveNext) {
                copy.add(timer);
            }
            return copy;
        }
    }

    /** A handler of {@code timer} starts at {@code startNanos}, {@code latenessNanos} after its deadline. */
    void handlerStarted(TimerHandle timer, long startNanos, long latenessNanos) {
        long late = Math.max(0, latenessNanos);
        LATE_RUNS.setRelease(this, lateRuns + 1); // plain reads: the one writer (see "Monitoring" above)
        LATE_SUM_NANOS.setRelease(this, lateSumNanos + late);
        if (late > lateMaxNanos) {
            LATE_MAX_NANOS.setRelease(this, late);
        }
        RUNNING_SINCE_NANOS.setOpaque(this, startNanos);
        if ((TimerHandle) RUNNING.getOpaque(this) != timer) {
            RUNNING.setOpaque(this, timer);
        }
        BUSY.setRelease(this, true); // after the two above: a reader that sees it set sees them
    }

    /** The event object of this owner's firings; called by the thread running its queue. */
    Event event() {
        Event e = event;
        if (e == null) {
            event = e = new Event();
        }
        return e;
    }

    /** The handler started by the last {@link #handlerStarted} has returned (or thrown). */
    void handlerFinished() {
        BUSY.setRelease(this, false);
    }

    /** The lateness recorded since creation or the last reset, and the handler running now. */
    OwnerSnapshot snapshot() {
        // busy first, with acquire: the timer and start time read after it are then the current run's or a later one's
        boolean inHandler = (boolean) BUSY.getAcquire(this);
        TimerHandle timer = inHandler ? (TimerHandle) RUNNING.getOpaque(this) : null;
        long since = (long) RUNNING_SINCE_NANOS.getOpaque(this);
        return new OwnerSnapshot(
                view.consumer(),
                name,
                (long) LATE_RUNS.getVolatile(this),
                (long) LATE_SUM_NANOS.getVolatile(this),
                (long) LATE_MAX_NANOS.getVolatile(this),
                timer == null ? null : timer.toString(),
                timer == null ? 0 : Math.max(0, System.nanoTime() - since));
    }

    /** Forgets the recorded lateness (a handler running now stays visible). */
    void resetStatistics() {
        LATE_RUNS.setVolatile(this, 0L);
        LATE_SUM_NANOS.setVolatile(this, 0L);
        LATE_MAX_NANOS.setVolatile(this, 0L);
    }

    /**
     * One owner as the shell and JMX see it.
     *
     * @param runningTimer the timer whose handler runs now, or null
     * @param runningNanos how long it has been running, 0 when none is
     */
    record OwnerSnapshot(
            String consumer,
            String owner,
            long runs,
            long latenessSumNanos,
            long latenessMaxNanos,
            String runningTimer,
            long runningNanos) {

        /** The mean lateness in ns, 0 without runs. */
        long latenessMeanNanos() {
            return runs == 0 ? 0 : latenessSumNanos / runs;
        }
    }

    /** Puts {@code timer} in the live list unless it is there already. */
    void remember(TimerHandle timer) {
        synchronized (liveLock) {
            if (timer.livePrevious != null || liveHead == timer) {
                return; // already in the list
            }
            timer.liveNext = liveHead;
            if (liveHead != null) {
                liveHead.livePrevious = timer;
            }
            liveHead = timer;
        }
    }

    void forget(OwnerExecutor executor) {
        executors.remove(executor);
    }

    @Override
    public ScheduledExecutorService asScheduledExecutorService() {
        checkOpen();
        OwnerExecutor executor = new OwnerExecutor(this);
        executors.add(executor);
        if (closed) {
            executor.ownerClosed();
        }
        return executor;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("timer owner '" + name + "' is closed");
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Timer schedule(Duration delay, TimerHandler handler) {
        long nanos = Arguments.nanos(delay, "delay", false);
        return start(TimerHandle.Kind.ONE_SHOT, handler, 0, nanos);
    }

    @Override
    public Timer scheduleAt(Instant when, TimerHandler handler) {
        Arguments.notNull(when, "when");
        Duration delay;
        try {
            delay = Duration.between(Instant.now(), when);
        } catch (ArithmeticException overflow) {
            throw new IllegalArgumentException("when is too far away: " + when, overflow);
        }
        return schedule(delay.isNegative() ? Duration.ZERO : delay, handler);
    }

    @Override
    public Timer scheduleAtFixedRate(Duration initialDelay, Duration period, TimerHandler handler) {
        long first = Arguments.nanos(initialDelay, "initialDelay", false);
        long periodNanos = Arguments.nanos(period, "period", true);
        return start(TimerHandle.Kind.FIXED_RATE, handler, view.clampPeriod(periodNanos), first);
    }

    @Override
    public Timer scheduleWithFixedDelay(Duration initialDelay, Duration delay, TimerHandler handler) {
        long first = Arguments.nanos(initialDelay, "initialDelay", false);
        long delayNanos = Arguments.nanos(delay, "delay", true);
        return start(TimerHandle.Kind.FIXED_DELAY, handler, view.clampPeriod(delayNanos), first);
    }

    private Timer start(TimerHandle.Kind kind, TimerHandler handler, long periodNanos, long firstDelayNanos) {
        Arguments.notNull(handler, "handler");
        checkOpen();
        view.checkCapacity();
        TimerHandle timer = new TimerHandle(this, handler, kind, periodNanos, view.nextTimerId());
        remember(timer);
        timer.start(System.nanoTime() + firstDelayNanos);
        if (closed) {
            timer.cancel();
            throw new IllegalStateException("timer owner '" + name + "' is closed");
        }
        return timer;
    }

    @Override
    public int pendingCount() {
        int pending = 0;
        for (TimerHandle timer : liveTimers()) {
            if (timer.remaining().isPresent()) {
                pending++;
            }
        }
        return pending;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        // Every call goes through the cancels (each idempotent), so a call that overlaps another also returns only
        // once every timer is cancelled: "no timer stays armed after close() returns" holds for each caller.
        closed = true;
        for (TimerHandle timer : liveTimers()) {
            timer.cancel(false);
        }
        synchronized (liveLock) {
            TimerHandle timer = liveHead;
            liveHead = null;
            while (timer != null) {
                TimerHandle next = timer.liveNext;
                timer.livePrevious = null;
                timer.liveNext = null;
                timer = next;
            }
        }
        for (OwnerExecutor executor : executors) {
            executor.ownerClosed();
        }
        view.forget(this);
    }

    @Override
    public String toString() {
        return "TimerOwner[" + name + "]";
    }
}
