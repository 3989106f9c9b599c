package org.rouse.api.internal.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.rouse.timer.spi.ClockedTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one owner's expired armings (their handlers) one at a time, in submission order, on the active engine's
 * workers.
 */
final class SerialQueue {

    /*
     * Implementation notes.
     *
     * Sources. The serial executor of the java.util.concurrent.Executor Javadoc (SerialExecutor), with an atomic state
     * instead of a lock; the queue itself belongs to the front, and an engine only ever holds a Ticket for it.
     *
     * Queue. Intrusive: the expired Arming is the node (Arming.next), linked under this object's monitor, which only
     * expiring threads and the one running worker take, each for a few field writes. An arming is queued at most once
     * at a time (expiry takes it out of its handle by CAS before submitting it, and a periodic timer re-arms it only
     * after its run), so queueing allocates nothing.
     *
     * Layout. `state` is IDLE, RUNNING (a worker is taking tasks) or the number of the one ticket that is handed to an
     * engine for this queue. A submit that finds the queue idle moves the state from IDLE to a ticket's number by CAS
     * and hands that ticket to the dispatch; a ticket that starts on a worker runs the queue only if it moves the
     * state from its own number to RUNNING, so a stale ticket (replaced meanwhile) does nothing. The running worker
     * takes a bounded batch (BATCH tasks), so a busy owner yields its worker to others, then sets the state idle and
     * re-checks the queue, which closes the window in which a concurrent submit saw the state still set. The state is
     * an int, not a reference to the ticket or a marker object: a firing moves it three times, and a reference store
     * into a long-lived queue costs a G1 card mark and, for an object in another heap region, a card refinement, which
     * at 10,000 owners was a sixth of a core.
     *
     * Reusable ticket. A ticket whose run started has left the engine's worker queue (each ticket is handed to an
     * engine exactly once per number), so the runner keeps it in `reusable` before it sets the state idle, and the
     * next hand-off hands the same ticket again: in the steady state a hand-off allocates nothing and stores no
     * reference. Hence, whenever the state is IDLE, `reusable` is null or the ticket that ran last, which is in no
     * engine's queue. Tickets that go stale (replaced by hand() or reissue()) never become `reusable`: a stale ticket
     * cannot run (its number is never the state again), and only a ticket that ran is kept.
     *
     * Swaps. After every swap the front calls reissue() on every owner's queue: a queue whose ticket still waits
     * (perhaps in the retired engine's worker queue, behind a handler that may never return, or in a queue that
     * engine's shutdown discards) gets a new ticket, with a new number, on the active engine, and the old one goes
     * stale. A ticket handed to an engine concurrently with a swap may have missed that reissue; hand() therefore
     * compares the dispatch's swap count before and after handing it over and, if a swap overlapped, replaces the
     * ticket itself (the swap count is incremented after `active` is published and before the reissue runs, so one of
     * the two always moves it). So no owner's work depends on a retired engine running what it was given.
     *
     * Invariants.
     * 1. At most one worker runs a queue at any time (only the CAS to RUNNING starts one), so the owner's tasks run
     *    one at a time.
     * 2. A queue with tasks is running, or has a ticket that is queued on the active engine (or parked in the
     *    dispatch while the active engine refuses).
     * 3. A task that throws (any Throwable) ends only itself: the run goes on with the next task and the state is
     *    always released.
     * 4. Ticket numbers are positive and odd, taken from a counter by getAndAdd, so IDLE (0) and RUNNING (-1) are never
     *    a ticket's number, and a stale ticket's number does not return before 2^30 more tickets (one per first
     *    hand-off and per swap that finds the queue waiting) have been made for the same queue.
     *
     * Costs. No allocation per task or, in the steady state, per hand-off (the reusable ticket), and no reference
     * store on either; a reissue is one read for an idle or running queue. A batch's first run starts at the clock
     * reading the engine passed in (ClockedTask), so a batch of one reads the clock once, at the handler's end. That
     * start is early by the ticket's CAS and the first poll, whose monitor a submitter holds for a few stores (longer
     * only if it is preempted there): a handler's recorded lateness may be that much short.
     */

    private static final Logger LOG = LoggerFactory.getLogger(SerialQueue.class);
    private static final int BATCH = 32;
    private static final int IDLE = 0;
    private static final int RUNNING = -1;

    private static final VarHandle STATE;
    private static final VarHandle NUMBERS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(SerialQueue.class, "state", int.class);
            NUMBERS = lookup.findVarHandle(SerialQueue.class, "numbers", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final TimerDispatch dispatch;
    /** The oldest queued arming, or null; guarded by this object's monitor. */
    private Arming head;
    /** The newest queued arming, or null; guarded by this object's monitor. */
    private Arming tail;
    /** IDLE, RUNNING or the number of the ticket handed to an engine; CAS by submitters, reissue and tickets. */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    /**
     * The ticket that ran last, handed again by the next hand-off, or null before the first run; written by the runner
     * before it sets the state idle, read by whoever then moves it out of IDLE (see the notes).
     */
    private volatile Ticket reusable;
    /** The last ticket number taken; getAndAdd by whoever makes a ticket. */
    @SuppressWarnings("unused") // accessed through NUMBERS
    private volatile int numbers;

    SerialQueue(TimerDispatch dispatch) {
        this.dispatch = dispatch;
    }

    /** Queues an expired arming (taken out of its handle by expiry, so in no other queue) to run its handler. */
    void submit(Arming arming) {
        synchronized (this) {
            if (tail == null) {
                head = arming;
            } else {
                tail.next = arming;
            }
            tail = arming;
        }
        scheduleIfIdle();
    }

    private synchronized Arming poll() {
        Arming first = head;
        if (first != null) {
            head = first.next;
            if (head == null) {
                tail = null;
            }
            first.next = null;
        }
        return first;
    }

    private synchronized boolean isEmpty() {
        return head == null;
    }

    private void scheduleIfIdle() {
        if ((int) STATE.getVolatile(this) == IDLE) {
            Ticket ticket = reusable;
            if (ticket == null) {
                ticket = new Ticket();
            }
            if (STATE.compareAndSet(this, IDLE, ticket.number)) {
                hand(ticket);
            }
        }
    }

    /** Hands {@code ticket} to the active engine; replaces it if a swap overlapped (see the notes). */
    private void hand(Ticket ticket) {
        for (; ; ) {
            long swaps = dispatch.swaps();
            dispatch.execute(ticket);
            if (dispatch.swaps() == swaps) {
                return;
            }
            Ticket fresh = new Ticket();
            if (!STATE.compareAndSet(this, ticket.number, fresh.number)) {
                return; // it started, or a swap's reissue replaced it
            }
            ticket = fresh;
        }
    }

    /** Called after each swap: a queue waiting under a ticket gets a new one on the active engine. */
    void reissue() {
        int waiting = (int) STATE.getVolatile(this);
        if (waiting > 0) {
            Ticket fresh = new Ticket();
            if (STATE.compareAndSet(this, waiting, fresh.number)) {
                dispatch.execute(fresh);
            }
        }
    }

    /**
     * Runs up to {@link #BATCH} queued armings, the first from {@code startNanos} (a clock reading taken just before);
     * returns the clock reading at the end of the last handler.
     */
    private long runBatch(Ticket ticket, long startNanos) {
        long start = startNanos;
        long end = startNanos;
        try {
            for (int i = 0; i < BATCH; i++) {
                Arming arming = poll();
                if (arming == null) {
                    break;
                }
                if (i > 0) {
                    start = System.nanoTime(); // not the last end: the re-arm since may have waited for a lock
                }
                try {
                    end = arming.handle().run(arming, start);
                } catch (Throwable e) { // runs contain their handlers' failures; this keeps the queue alive regardless
                    LOG.error("Timer run {} failed", arming, e);
                    end = System.nanoTime();
                }
            }
        } finally {
            if (reusable != ticket) {
                reusable = ticket; // its run started, so it has left the engine's queue; no store in the steady state
            }
            STATE.setVolatile(this, IDLE);
            if (!isEmpty()) {
                scheduleIfIdle();
            }
        }
        return end;
    }

    /**
     * What an engine holds for this queue: runs it if its number is still the queue's state. A clocked task, so the
     * wheel engine's clock reading before the run is the first handler's start time and the last handler's end reading
     * is the engine's (see {@link ClockedTask}).
     */
    private final class Ticket implements ClockedTask {
        /** Positive and unique within the queue (invariant 4). */
        final int number = (((int) NUMBERS.getAndAdd(SerialQueue.this, 1) << 1) | 1) & Integer.MAX_VALUE;

        @Override
        public void run() {
            run(System.nanoTime());
        }

        @Override
        public long run(long startNanos) {
            if (STATE.compareAndSet(SerialQueue.this, number, RUNNING)) {
                return runBatch(this, startNanos);
            }
            return startNanos; // stale: nothing ran
        }
    }
}
