package org.rouse.api.internal.timer;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one owner's tasks one at a time, in submission order, on the active engine's workers.
 */
final class SerialQueue implements Runnable {

    /*
     * Implementation notes.
     *
     * Sources. The serial executor of the java.util.concurrent.Executor Javadoc (SerialExecutor), with an atomic
     * "scheduled" flag instead of a lock.
     *
     * Layout. `tasks` holds the owner's tasks in submission order; `scheduled` says whether a run of this queue is
     * submitted or running.
     *
     * Invariants.
     * 1. At most one run of a queue is submitted or running at any time (a submit executes the queue only after its CAS
     *    of `scheduled` from false to true), so the owner's tasks run one at a time and an engine's worker queue never
     *    holds more than one task per owner.
     * 2. No task is stranded: after clearing the flag, run re-checks the queue, which closes the window in which a
     *    concurrent submit saw the flag still set.
     *
     * Costs. A submit to a queue already scheduled is one queue insertion and one failed CAS. A run takes a bounded
     * batch (BATCH tasks), so a busy owner yields its worker to others.
     */

    private static final int BATCH = 32;

    private final TimerDispatch dispatch;
    /** Tasks in submission order; offered by dispatcher threads, polled by the one running worker. */
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Whether a run of this queue is submitted or running; CAS by submitters, cleared by the running worker. */
    private final AtomicBoolean scheduled = new AtomicBoolean();

    SerialQueue(TimerDispatch dispatch) {
        this.dispatch = dispatch;
    }

    void submit(Runnable task) {
        tasks.add(task);
        if (scheduled.compareAndSet(false, true)) {
            dispatch.execute(this);
        }
    }

    @Override
    public void run() {
        for (int i = 0; i < BATCH; i++) {
            Runnable task = tasks.poll();
            if (task == null) {
                break;
            }
            task.run();
        }
        scheduled.set(false);
        if (!tasks.isEmpty() && scheduled.compareAndSet(false, true)) {
            dispatch.execute(this);
        }
    }
}
