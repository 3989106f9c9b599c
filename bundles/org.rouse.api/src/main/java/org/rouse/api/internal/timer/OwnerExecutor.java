package org.rouse.api.internal.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.rouse.api.internal.Arguments;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerHandler;

/**
 * A {@link ScheduledExecutorService} over one {@link Owner}'s timers, with the JDK's semantics.
 */
final class OwnerExecutor extends AbstractExecutorService implements ScheduledExecutorService {

    /*
     * Implementation notes.
     *
     * Sources. java.util.concurrent.ScheduledThreadPoolExecutor: FutureTask.runAndReset() for periodic tasks, the
     * default shutdown policies, trigger-time clamping; ThreadPoolExecutor's run states.
     *
     * Algorithm. Each task is a FutureTask run by a timer of the owner, so the view's tasks run one at a time like
     * every handler of that owner. A periodic task uses FutureTask.runAndReset() exactly as
     * ScheduledThreadPoolExecutor does: a run that throws (anything, Errors too) completes the future with it and
     * cancels the timer, so the task stops.
     *
     * Layout. `lock` guards `live` (tasks that may still run: not completed, cancelled or handed back), `running`
     * (tasks between starting and returning), each task's runner and handed-back mark, and the transitions of
     * `runState` (RUNNING, SHUTDOWN, STOP as in ThreadPoolExecutor). A task starts only by fire taking the lock,
     * finding it neither handed back nor the view stopped, and counting itself running; shutdownNow under the same
     * lock hands back every live task that is not running and interrupts those that are. So a task whose timer has
     * already fired into the owner's queue, waiting behind another handler, is handed back and never runs: the claim,
     * not the timer, decides.
     *
     * Invariants.
     * 1. The view is terminated exactly when it is shut down, `live` is empty and `running` is zero; checked under the
     *    lock wherever one of them changes, so termination means no task runs or will run.
     * 2. Delays and periods are converted with TimeUnit.toNanos (which saturates) and clamped to
     *    Arguments.MAX_DELAY_NANOS, as the JDK clamps its trigger times: a huge delay means never, not an error.
     * 3. Checks come in the JDK's order: null arguments, then a non-positive period, then rejection after shutdown.
     *
     * Costs. Differences from the JDK, by design: periods are raised to the owner's minimum interval, and a fixed-rate
     * task that overruns coalesces the missed runs (the owner's rule) where the JDK runs them back to back.
     */

    private static final int RUNNING = 0;
    private static final int SHUTDOWN = 1;
    private static final int STOP = 2;

    private final Owner owner;
    /** Guards the fields below and every task's runner and handed-back mark. */
    private final Object lock = new Object();
    /** Tasks that may still run; guarded by {@link #lock}. */
    private final Set<ViewTask<?>> live = new java.util.LinkedHashSet<>();
    /** Tasks running now; guarded by {@link #lock}. */
    private int running;
    /** RUNNING, SHUTDOWN or STOP; written under {@link #lock}, read anywhere. */
    private volatile int runState = RUNNING;
    /** Counted down (under {@link #lock}) once shut down with no task live or running. */
    private final CountDownLatch terminated = new CountDownLatch(1);

    OwnerExecutor(Owner owner) {
        this.owner = owner;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Arguments.notNull(command, "command");
        Arguments.notNull(unit, "unit");
        return start(new ViewTask<>(Executors.callable(command, null), 0, 0), delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Arguments.notNull(callable, "callable");
        Arguments.notNull(unit, "unit");
        return start(new ViewTask<>(callable, 0, 0), delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return periodic(command, initialDelay, period, unit, 1);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return periodic(command, initialDelay, delay, unit, -1);
    }

    private ScheduledFuture<?> periodic(Runnable command, long initialDelay, long period, TimeUnit unit, int kind) {
        Arguments.notNull(command, "command");
        Arguments.notNull(unit, "unit");
        if (period <= 0) {
            throw new IllegalArgumentException("period must be positive: " + period + " " + unit);
        }
        return start(
                new ViewTask<>(Executors.callable(command, null), kind, clampedNanos(period, unit)),
                initialDelay,
                unit);
    }

    /** {@code amount} in nanoseconds, saturating, and at least 0 and at most {@link Arguments#MAX_DELAY_NANOS}. */
    private static long clampedNanos(long amount, TimeUnit unit) {
        return Math.min(Math.max(0, unit.toNanos(amount)), Arguments.MAX_DELAY_NANOS);
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        Arguments.notNull(task, "task");
        return schedule(Executors.callable(task, result), 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    private <V> ViewTask<V> start(ViewTask<V> task, long delay, TimeUnit unit) {
        Duration first = Duration.ofNanos(clampedNanos(delay, unit));
        synchronized (lock) {
            if (runState != RUNNING) {
                throw new RejectedExecutionException(
                        "this ScheduledExecutorService view of " + owner + " is shut down");
            }
            live.add(task);
        }
        TimerHandler handler = event -> task.fire();
        Timer timer;
        try {
            if (task.kind == 0) {
                timer = owner.schedule(first, handler);
            } else if (task.kind > 0) {
                timer = owner.scheduleAtFixedRate(first, Duration.ofNanos(task.periodNanos), handler);
            } else {
                timer = owner.scheduleWithFixedDelay(first, Duration.ofNanos(task.periodNanos), handler);
            }
        } catch (IllegalStateException closed) {
            forget(task);
            throw new RejectedExecutionException("timer owner " + owner.name() + " is closed", closed);
        } catch (RuntimeException e) {
            forget(task);
            throw e;
        }
        task.timer = timer;
        boolean handedBack;
        synchronized (lock) {
            handedBack = task.handedBack;
        }
        if (handedBack || task.isDone()) {
            timer.cancel(); // shutdownNow, a cancel or a failed periodic run came before the timer was known
        } else if (task.kind != 0 && runState != RUNNING) {
            task.cancel(false); // raced with shutdown, which cancels periodic tasks
        }
        return task;
    }

    private void forget(ViewTask<?> task) {
        synchronized (lock) {
            live.remove(task);
            tryTerminateLocked();
        }
    }

    @Override
    public void shutdown() {
        List<ViewTask<?>> periodic = new ArrayList<>();
        synchronized (lock) {
            if (runState == RUNNING) {
                runState = SHUTDOWN;
            }
            for (ViewTask<?> task : live) {
                if (task.kind != 0) {
                    periodic.add(task);
                }
            }
            tryTerminateLocked();
        }
        for (ViewTask<?> task : periodic) {
            task.cancel(false); // the JDK's default: periodic tasks do not go on after shutdown
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> neverStarted = new ArrayList<>();
        synchronized (lock) {
            runState = STOP;
            for (Iterator<ViewTask<?>> it = live.iterator(); it.hasNext(); ) {
                ViewTask<?> task = it.next();
                if (task.runner == null) {
                    task.handedBack = true;
                    neverStarted.add(task);
                    it.remove();
                } else {
                    task.runner.interrupt();
                }
            }
            tryTerminateLocked();
        }
        for (Runnable task : neverStarted) {
            Timer timer = ((ViewTask<?>) task).timer;
            if (timer != null) {
                timer.cancel();
            }
        }
        return neverStarted;
    }

    private void tryTerminateLocked() {
        if (runState != RUNNING && live.isEmpty() && running == 0 && terminated.getCount() > 0) {
            terminated.countDown();
            owner.forget(this);
        }
    }

    @Override
    public boolean isShutdown() {
        return runState != RUNNING;
    }

    @Override
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /** Owner closed: nothing of this view can run any more. */
    void ownerClosed() {
        List<ViewTask<?>> tasks;
        synchronized (lock) {
            if (runState == RUNNING) {
                runState = SHUTDOWN;
            }
            tasks = new ArrayList<>(live);
            tryTerminateLocked();
        }
        for (ViewTask<?> task : tasks) {
            task.cancel(false);
        }
    }

    /** One task of the view. */
    private final class ViewTask<V> extends FutureTask<V> implements RunnableScheduledFuture<V> {
        /** 0 one-shot, 1 fixed rate, -1 fixed delay. */
        final int kind;
        /** The clamped period or delay of a periodic task. */
        final long periodNanos;
        /** Written by start once its timer exists (a run may come first). */
        volatile Timer timer;
        /** The thread running the task now, or null; guarded by {@link #lock}. */
        Thread runner;
        /** Set by shutdownNow, which returned this task: it never starts; guarded by {@link #lock}. */
        boolean handedBack;

        ViewTask(Callable<V> callable, int kind, long periodNanos) {
            super(callable);
            this.kind = kind;
            this.periodNanos = periodNanos;
        }

        /** Called by the owner's timer: runs the task unless it was handed back or the view stopped. */
        void fire() {
            synchronized (lock) {
                if (handedBack || runState == STOP || isDone()) {
                    return;
                }
                runner = Thread.currentThread();
                running++;
            }
            try {
                if (kind == 0) {
                    super.run();
                } else if (!runAndReset() || runState != RUNNING) {
                    cancelTimer(); // threw, was cancelled or the view shut down: no further runs (the JDK rule)
                    cancel(false);
                }
            } finally {
                synchronized (lock) {
                    runner = null;
                    running--;
                    Thread.interrupted(); // an interrupt from shutdownNow must not leak to the owner's next handler
                    tryTerminateLocked();
                }
            }
        }

        private void cancelTimer() {
            Timer t = timer;
            if (t != null) {
                t.cancel();
            }
        }

        /**
         * Runs the task on the caller's thread, as {@link java.util.concurrent.ScheduledThreadPoolExecutor}'s tasks
         * do when run by hand (e.g. those returned by {@code shutdownNow}): cancelled instead if the view's state no
         * longer lets it run.
         */
        @Override
        public void run() {
            if (runState == STOP || (kind != 0 && runState != RUNNING)) {
                cancel(false);
            } else if (kind == 0) {
                super.run();
            } else {
                runAndReset();
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) {
                cancelTimer();
            }
            return cancelled;
        }

        @Override
        protected void done() {
            synchronized (lock) {
                live.remove(this);
                tryTerminateLocked();
            }
        }

        @Override
        public boolean isPeriodic() {
            return kind != 0;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            Timer t = timer;
            Duration remaining = t == null ? Duration.ZERO : t.remaining().orElse(Duration.ZERO);
            return unit.convert(remaining);
        }

        @Override
        public int compareTo(Delayed other) {
            return other == this
                    ? 0
                    : Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }
    }
}
