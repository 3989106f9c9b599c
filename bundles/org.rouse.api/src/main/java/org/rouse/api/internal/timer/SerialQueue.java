package org.rouse.api.internal.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;
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
     * Spare ticket. A ticket whose run started has left the engine's worker queue (each ticket is handed to an engine
     * exactly once), so the runner keeps it in `spare` and the next hand-off takes it from there (getAndSet, so one
     * party at a time owns it) instead of allocating one. Tickets that go stale (replaced by hand() or reissue()) are
     * never kept: they may still sit in a retired engine's queue.
     *
     * Layout. `state` is null (idle), a Ticket (a run is handed to an engine under that ticket) or RUNNING (a worker is
     * taking tasks). A submit that finds the queue idle installs a new ticket by CAS and hands it to the dispatch; a
     * ticket that starts on a worker runs the queue only if it moves the state from itself to RUNNING, so a stale
     * ticket (replaced meanwhile) does nothing. The running worker takes a bounded batch (BATCH tasks), so a busy owner
     * yields its worker to others, then sets the state idle and re-checks the queue, which closes the window in which a
     * concurrent submit saw the state still set.
     *
     * Swaps. After every swap the front calls reissue() on every owner's queue: a queue whose ticket still waits
     * (perhaps in the retired engine's worker queue, behind a handler that may never return, or in a queue that
     * engine's shutdown discards) gets a new ticket on the active engine, and the old one goes stale. A ticket handed to
     * an engine concurrently with a swap may have missed that reissue; hand() therefore compares the dispatch's swap
     * count before and after handing it over and, if a swap overlapped, replaces the ticket itself (the swap count is
     * incremented after `active` is published and before the reissue runs, so one of the two always moves it). So no
     * owner's work depends on a retired engine running what it was given.
     *
     * Invariants.
     * 1. At most one worker runs a queue at any time (only the CAS to RUNNING starts one), so the owner's tasks run
     *    one at a time.
     * 2. A queue with tasks is running, or has a ticket that is queued on the active engine (or parked in the
     *    dispatch while the active engine refuses).
     * 3. A task that throws (any Throwable) ends only itself: the run goes on with the next task and the state is
     *    always released.
     *
     * Costs. No allocation per task or, in the steady state, per hand-off (the spare ticket); a reissue is one read
     * for an idle or running queue.
     */

    private static final Logger LOG = LoggerFactory.getLogger(SerialQueue.class);
    private static final int BATCH = 32;
    private static final Object RUNNING = new Object();

    private static final VarHandle SPARE;

    static {
        try {
            SPARE = MethodHandles.lookup().findVarHandle(SerialQueue.class, "spare", Ticket.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final TimerDispatch dispatch;
    /** The oldest queued arming, or null; guarded by this object's monitor. */
    private Arming head;
    /** The newest queued arming, or null; guarded by this object's monitor. */
    private Arming tail;
    /** Idle (null), a ticket or RUNNING; CAS by submitters, reissue and starting tickets; set idle by the runner. */
    private final AtomicReference<Object> state = new AtomicReference<>();
    /** A ticket no engine holds, or null; set by the runner, taken by getAndSet (see the notes). */
    @SuppressWarnings("unused") // accessed through SPARE
    private volatile Ticket spare;

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
        if (state.get() == null) {
            Ticket ticket = (Ticket) SPARE.getAndSet(this, (Ticket) null);
            if (ticket == null) {
                ticket = new Ticket();
            }
            if (state.compareAndSet(null, ticket)) {
                hand(ticket);
            } else {
                SPARE.compareAndSet(this, (Ticket) null, ticket); // no engine holds it: keep it for the next hand-off
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
            if (!state.compareAndSet(ticket, fresh)) {
                return; // it started, or a swap's reissue replaced it
            }
            ticket = fresh;
        }
    }

    /** Called after each swap: a queue waiting under a ticket gets a new one on the active engine. */
    void reissue() {
        if (state.get() instanceof Ticket waiting) {
            Ticket fresh = new Ticket();
            if (state.compareAndSet(waiting, fresh)) {
                dispatch.execute(fresh);
            }
        }
    }

    private void runBatch(Ticket ticket) {
        try {
            for (int i = 0; i < BATCH; i++) {
                Arming arming = poll();
                if (arming == null) {
                    break;
                }
                try {
                    arming.handle.run(arming);
                } catch (Throwable e) { // runs contain their handlers' failures; this keeps the queue alive regardless
                    LOG.error("Timer run {} failed", arming, e);
                }
            }
        } finally {
            SPARE.setRelease(this, ticket); // its run started, so it has left the engine's queue
            state.set(null);
            if (!isEmpty()) {
                scheduleIfIdle();
            }
        }
    }

    /** What an engine holds for this queue: runs it if it is still the queue's current ticket. */
    private final class Ticket implements Runnable {
        @Override
        public void run() {
            if (state.compareAndSet(this, RUNNING)) {
                runBatch(this);
            }
        }
    }
}
