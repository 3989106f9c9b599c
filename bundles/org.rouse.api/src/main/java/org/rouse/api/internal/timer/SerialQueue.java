package org.rouse.api.internal.timer;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one owner's tasks one at a time, in submission order, on the active engine's workers.
 *
 * <p>Implementation notes: the classic serial executor (see the {@link java.util.concurrent.Executor} Javadoc) with an
 * atomic "scheduled" flag instead of a lock. At most one {@code run} of a queue is submitted or running at any time,
 * so an engine's worker queue never holds more than one task per owner. {@code run} takes a bounded batch so that a
 * busy owner yields its worker to others; after clearing the flag it re-checks the queue, which closes the window in
 * which a concurrent {@code submit} saw the flag still set.
 */
final class SerialQueue implements Runnable {

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
