package org.rouse.api.internal.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Optional;
import org.rouse.api.internal.Arguments;
import org.rouse.api.internal.events.RouseEvents;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerHandler;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer's handle to one timer, and the state machine that makes it fire exactly once per arming. The handle is
 * also its own arming whenever it can be (see the notes), so a pending timer is one object.
 */
final class TimerHandle extends Arming implements Timer {

    /*
     * Implementation notes.
     *
     * Layout. Each time the timer is armed an Arming is published in `armed` (a field updated through a VarHandle,
     * with no AtomicReference beside it). The handle extends Arming and is that arming itself while `self` is
     * SELF_FREE when it arms: a pending timer is then one object, which is also the wheel engine's node. A periodic
     * timer arms the same Arming again for its next period when Arming.reusable() says no other engine can hold it,
     * so its steady-state firing allocates nothing here (see Arming's notes).
     *
     * The handle as its own arming. `self` (guarded by the monitor) is SELF_FREE while no engine, queue or run holds
     * the handle as an arming, SELF_ARMED from when it arms itself until that arming ends, and SELF_RETIRED for good
     * once an arming as itself may still be known to an engine. It ends, back to SELF_FREE, when its run ends (the
     * engine that expired it let go of it before the expiry's CAS) or when a cancel or reschedule takes it back and
     * the dispatch's disarm removed it from the engine that held it. It is retired when that disarm found nothing (an
     * expiry in flight, or a swapped-out engine, may still call expire on it: were the handle armed as itself again
     * by then, that stale expiry's CAS would succeed and fire the new arming early) or when it is not reusable (a
     * swap moved it, or two engines may have known it). From then on the timer arms SpareArmings, each re-used by a
     * periodic timer as before: one allocation per timer and such event, not per firing.
     *
     * Invariants.
     * 1. Exactly one party takes an arming out again: the engine's expire (by CAS from that arming to null), or
     *    cancel/reschedule/owner close (by getAndSet(null)). Whoever takes it decides what happens, so an arming known
     *    to two engines during a swap still runs at most once, and a cancel racing with expiry either wins (no run) or
     *    loses (returns false for a one-shot).
     * 2. Control operations run under the handle's monitor and bump `generation`; a run that finds its arming's
     *    generation stale does not re-arm, which is how a periodic timer cancelled or rescheduled during its own
     *    handler stops or restarts cleanly.
     * 3. The handle is armed as itself only at SELF_FREE, and only from SELF_FREE does an arming as itself start: so
     *    no two armings as itself overlap, and no engine can know an earlier one when it does.
     * 4. Expiry and cancel cannot deadlock: the expiry path takes no lock before its CAS; engines never hold their own
     *    locks while calling expire, so the monitor taken after it cannot deadlock with cancel (which calls into the
     *    engine under the monitor).
     * 5. No arming outlives its owner's close. Owner.close() sets `closed` (volatile) and then cancels every timer in its
     *    live list. start and reschedule add the timer to the live list and arm it, then read `closed` again and cancel
     *    the arming themselves if it is set: either close's iteration sees the timer (and its cancel waits for the
     *    monitor held by reschedule) or the re-check sees `closed`.
     * 6. No handler starts after close() has returned: an event already handed to the owner's queue reads `closed`
     *    before its handler starts. The event's start time (Event.startNanos()) is read before that check, so every
     *    handler that runs has a start time earlier than the return of any close() of its owner (what
     *    TimerCloseRaceTest checks).
     */

    private static final Logger LOG = LoggerFactory.getLogger(TimerHandle.class);

    enum Kind {
        ONE_SHOT,
        FIXED_RATE,
        FIXED_DELAY
    }

    /** The handle is not an arming now and may arm itself (see the notes). */
    private static final byte SELF_FREE = 0;
    /** The handle is armed as itself, or its arming as itself is queued or running. */
    private static final byte SELF_ARMED = 1;
    /** An arming as itself may still be known to an engine: the handle never arms itself again. */
    private static final byte SELF_RETIRED = 2;

    private final Owner owner;
    private final TimerHandler handler;
    /** The {@link Kind}'s ordinal: a byte where a reference would cost the one object a pending timer is 8 bytes. */
    private final byte kindOrdinal;

    private static final Kind[] KINDS = Kind.values();
    /** Numbers the timer within its bundle's view, for logs and the shell (shown unsigned). */
    private final int id;
    /** The pending arming or null; published under the monitor, taken by CAS (expiry) or getAndSet (control). */
    @SuppressWarnings("unused") // accessed through ARMED
    private volatile Arming armed;
    /** Period or fixed delay after clamping, zero for one-shots; guarded by this. */
    private long periodNanos;
    /** Bumped by cancel and reschedule; guarded by this. */
    private int generation;
    /** SELF_FREE, SELF_ARMED or SELF_RETIRED (see the notes); guarded by this. */
    private byte self = SELF_FREE;
    /**
     * The {@link TimerState}'s ordinal (0, SCHEDULED, when new); written under this with release stores (setState:
     * every decision that depends on it is taken under the monitor, so no load needs ordering after the store), read
     * anywhere. An int rather than the enum constant: a firing writes it twice, and a reference store of a constant
     * from another heap region costs each handle a G1 card mark and its later refinement.
     */
    private volatile int state;

    private static final TimerState[] STATES = TimerState.values();
    /** Neighbours in the owner's list of timers that may still run; guarded by the owner's live lock. */
    TimerHandle livePrevious;

    TimerHandle liveNext;

    private static final VarHandle ARMED;

    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ARMED = lookup.findVarHandle(TimerHandle.class, "armed", Arming.class);
            STATE = lookup.findVarHandle(TimerHandle.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    TimerHandle(Owner owner, TimerHandler handler, Kind kind, long periodNanos, int id) {
        this.owner = owner;
        this.handler = handler;
        this.kindOrdinal = (byte) kind.ordinal();
        this.periodNanos = periodNanos;
        this.id = id;
    }

    /** Arms the first deadline. */
    synchronized void start(long deadlineNanos) {
        armLocked(deadlineNanos, 0);
    }

    private void armLocked(long deadline, long missed) {
        Arming arming;
        if (self == SELF_FREE) {
            self = SELF_ARMED;
            arming = this;
        } else {
            arming = new SpareArming(this);
        }
        arming.set(deadline, generation, missed);
        publishLocked(arming);
    }

    /**
     * An arming this handle took back from the engines ({@code removed}: the dispatch's disarm removed it from the
     * engine that held it) or whose run ended ({@code removed} true: the engine that expired it let go of it): if it
     * is the handle itself, the handle may arm itself again, unless an engine may still know it. Under the monitor.
     */
    private void endedLocked(Arming arming, boolean removed) {
        if (arming == this) {
            self = removed && reusable() ? SELF_FREE : SELF_RETIRED;
        }
    }

    private Kind kind() {
        return KINDS[kindOrdinal];
    }

    @Override
    TimerHandle handle() {
        return this;
    }

    private void publishLocked(Arming arming) {
        setState(TimerState.SCHEDULED);
        // a release store: the engine and the expiry see it through the engine's lock, and close() through this
        // monitor, which reschedule and start hold while they arm (see invariant 5)
        ARMED.setRelease(this, arming);
        owner.view().counters().pendingAdded();
        owner.view().dispatch().arm(arming);
    }

    private void setState(TimerState next) {
        STATE.setRelease(this, next.ordinal());
    }

    boolean isArmedWith(Arming arming) {
        return (Arming) ARMED.getVolatile(this) == arming;
    }

    /** Called by the engine's thread once {@code arming} is due. */
    void expire(Arming arming) {
        if (!ARMED.compareAndSet(this, arming, null)) {
            return; // cancelled or replaced meanwhile
        }
        owner.view().counters().pendingRemoved();
        synchronized (this) {
            if (arming.armedGeneration == generation) {
                setState(TimerState.RUNNING);
            }
        }
        owner.queue().submit(arming);
    }

    /**
     * Runs the handler on the owner's queue, then re-arms a periodic timer. Nothing starts once the owner is closed
     * (see {@link Owner#close()}). Whatever the handler throws, {@link Error}s included, ends with this event: it is
     * counted and logged, and the timer goes on by its own rules.
     *
     * @param start a clock reading taken on this thread just before (the engine's for a batch's first run, else the
     *     queue's own): the handler's start time, read before {@code closed} as the notes on owner close require
     * @return the clock reading at the handler's end, before the re-arm
     */
    long run(Arming arming, long start) {
        if (owner.isClosed()) {
            closedBeforeRun();
            return start;
        }
        TimerCounters counters = owner.view().counters();
        counters.lateness().record(start - arming.deadlineNanos);
        owner.handlerStarted(this, start, start - arming.deadlineNanos);
        RouseEvents.timerLate(owner.name(), this, start - arming.deadlineNanos);
        long end = start;
        try {
            handler.onTimer(owner.event().fill(this, arming.deadlineNanos, start, arming.missedFirings));
        } catch (Throwable e) { // a StackOverflowError has unwound by now, so logging it is safe
            counters.failed();
            LOG.warn("Timer handler failed: owner '{}', timer {}", owner.name(), this, e);
        } finally {
            end = System.nanoTime();
            long took = end - start;
            counters.fired();
            long slow = owner.view().policy().slowHandlerNanos();
            if (took > slow) {
                counters.slowHandler();
                LOG.warn(
                        "Slow timer handler: owner '{}', timer {} ran {} ms (threshold {} ms)",
                        owner.name(),
                        this,
                        took / 1_000_000,
                        slow / 1_000_000);
            }
            owner.handlerFinished(); // last: an owner seen idle has its run counted
        }
        afterRun(arming, end); // the handler's end time is also what a periodic timer's next period starts from
        return end;
    }

    /** The owner closed after this event was handed to its queue: the event is dropped, as if cancelled. */
    private synchronized void closedBeforeRun() {
        if (state == TimerState.RUNNING.ordinal()) {
            setState(TimerState.CANCELLED);
            owner.view().counters().cancelled();
        }
    }

    /** After a run that ended at {@code now} ({@code System.nanoTime()}): re-arms a periodic timer, or settles it. */
    private synchronized void afterRun(Arming arming, long now) {
        if (arming.armedGeneration != generation) {
            if (state == TimerState.RUNNING.ordinal()) {
                setState(kind() == Kind.ONE_SHOT ? TimerState.FIRED : TimerState.CANCELLED);
            }
            endedLocked(arming, true);
            return; // cancelled or rescheduled while it ran
        }
        if (kind() == Kind.ONE_SHOT) {
            setState(TimerState.FIRED);
            owner.forget(this);
            endedLocked(arming, true); // a reschedule may arm it again
            return;
        }
        if (owner.isClosed()) {
            setState(TimerState.CANCELLED);
            return;
        }
        long next;
        long missed = 0;
        if (kind() == Kind.FIXED_RATE) {
            next = arming.deadlineNanos + periodNanos;
            if (next - now < 0) { // fell behind: fire once now, on the phase, and report what was skipped
                missed = (now - next) / periodNanos;
                next += missed * periodNanos;
            }
        } else {
            next = now + periodNanos;
        }
        if (arming.reusable()) {
            arming.set(next, generation, missed); // expired and run: no engine holds it any more (see Arming's notes)
            publishLocked(arming);
        } else {
            endedLocked(arming, true);
            armLocked(next, missed);
        }
    }

    @Override
    public TimerOwner owner() {
        return owner;
    }

    @Override
    public boolean cancel() {
        return cancel(true);
    }

    /** Cancels; {@code forget} is false when the owner is closing and forgets all its timers itself. */
    synchronized boolean cancel(boolean forget) {
        if (state == TimerState.CANCELLED.ordinal()) {
            return false;
        }
        generation++;
        Arming pending = (Arming) ARMED.getAndSet(this, null);
        boolean prevented;
        if (pending != null) {
            owner.view().counters().pendingRemoved();
            endedLocked(pending, owner.view().dispatch().disarm(pending));
            prevented = true;
        } else {
            prevented =
                    kind() != Kind.ONE_SHOT && state != TimerState.FIRED.ordinal(); // future runs of a running periodic
        }
        if (prevented) {
            setState(TimerState.CANCELLED);
            owner.view().counters().cancelled();
            if (forget) {
                owner.forget(this);
            }
        }
        return prevented;
    }

    @Override
    public void reschedule(Duration delay) {
        long nanos = Arguments.nanos(delay, "delay", kind() != Kind.ONE_SHOT);
        synchronized (this) {
            owner.checkOpen();
            generation++;
            Arming pending = (Arming) ARMED.getAndSet(this, null);
            if (pending != null) {
                owner.view().counters().pendingRemoved();
                endedLocked(pending, owner.view().dispatch().disarm(pending));
            } else {
                owner.view().checkCapacity();
                owner.remember(this);
            }
            if (kind() != Kind.ONE_SHOT) {
                periodNanos = owner.view().clampPeriod(nanos);
                nanos = periodNanos;
            }
            armLocked(System.nanoTime() + nanos, 0);
            if (owner.isClosed()) {
                // close() ran after checkOpen and may have iterated the owner's timers before remember: undo the arming
                cancel();
                owner.checkOpen();
            }
        }
    }

    @Override
    public TimerState state() {
        return STATES[state];
    }

    @Override
    public boolean isPeriodic() {
        return kind() != Kind.ONE_SHOT;
    }

    @Override
    public synchronized Duration period() {
        return Duration.ofNanos(periodNanos);
    }

    @Override
    public Optional<Duration> remaining() {
        Arming pending = (Arming) ARMED.getVolatile(this);
        if (pending == null) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(Math.max(0, pending.deadlineNanos - System.nanoTime())));
    }

    @Override
    public String toString() {
        return "#" + Integer.toUnsignedString(id)
                + (kind() == Kind.ONE_SHOT ? " one-shot" : " " + kind().name().toLowerCase(java.util.Locale.ROOT));
    }
}
