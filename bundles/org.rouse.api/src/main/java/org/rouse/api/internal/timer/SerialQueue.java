package org.rouse.api.internal.timer;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one owner's tasks one at a time, in submission order, on the active engine's workers.
 */
final class SerialQueue {

    /*
     * Implementation notes.
     *
     * Sources. The serial executor of the java.util.concurrent.Executor Javadoc (SerialExecutor), with an atomic state
     * instead of a lock; the queue itself belongs to the front, and an engine only ever holds a Ticket for it.
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
     * Costs. One small ticket per hand-off (not per task); a reissue is one read for an idle or running queue.
     */

    private static final Logger LOG = LoggerFactory.getLogger(SerialQueue.class);
    private static final int BATCH = 32;
    private static final Object RUNNING = new Object();

    private final TimerDispatch dispatch;
    /** Tasks in submission order; offered by dispatcher threads, polled by the one running worker. */
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Idle (null), a ticket or RUNNING; CAS by submitters, reissue and starting tickets; set idle by the runner. */
    private final AtomicReference<Object> state = new AtomicReference<>();

    SerialQueue(TimerDispatch dispatch) {
        this.dispatch = dispatch;
    }

    void submit(Runnable task) {
        tasks.add(task);
        scheduleIfIdle();
    }

    private void scheduleIfIdle() {
        if (state.get() == null) {
            Ticket ticket = new Ticket();
            if (state.compareAndSet(null, ticket)) {
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

    private void runBatch() {
        try {
            for (int i = 0; i < BATCH; i++) {
                Runnable task = tasks.poll();
                if (task == null) {
                    break;
                }
                try {
                    task.run();
                } catch (Throwable e) { // tasks contain their handlers' failures; this keeps the queue alive regardless
                    LOG.error("Timer task {} failed", task, e);
                }
            }
        } finally {
            state.set(null);
            if (!tasks.isEmpty()) {
                scheduleIfIdle();
            }
        }
    }

    /** What an engine holds for this queue: runs it if it is still the queue's current ticket. */
    private final class Ticket implements Runnable {
        @Override
        public void run() {
            if (state.compareAndSet(this, RUNNING)) {
                runBatch();
            }
        }
    }
}
