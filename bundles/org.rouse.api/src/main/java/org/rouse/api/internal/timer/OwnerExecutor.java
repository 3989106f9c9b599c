package org.rouse.api.internal.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
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
     * Sources. java.util.concurrent.ScheduledThreadPoolExecutor: FutureTask.runAndReset() for periodic tasks and the
     * default shutdown policies.
     *
     * Algorithm. Each task is a FutureTask run by a timer of the owner, so the view's tasks run one at a time like
     * every handler of that owner. A periodic task uses FutureTask.runAndReset() exactly as
     * java.util.concurrent.ScheduledThreadPoolExecutor does: a run that throws completes the future with the exception
     * and cancels the timer, so the task stops. `live` holds this view's tasks that have not completed; shutdown
     * follows the JDK executor's default policies (delayed one-shots still run, periodic tasks are cancelled) and
     * shutdownNow disarms every task that has not started, returns them and interrupts the ones running; neither
     * touches other timers of the owner nor the engine.
     *
     * Invariants.
     * 1. The view terminates when it is shut down and `live` is empty.
     *
     * Costs. Fixed-rate tasks whose run overruns the period coalesce missed runs (the owner's rule) where the JDK would
     * run them back to back.
     */

    private final Owner owner;
    /** Tasks not yet completed, cancelled or handed back by shutdownNow; added by submitters, removed by anyone. */
    private final Set<ViewTask<?>> live = ConcurrentHashMap.newKeySet();
    /** Set once by shutdown or shutdownNow. */
    private volatile boolean shutDown;
    /** Counted down once shut down and empty. */
    private final CountDownLatch terminated = new CountDownLatch(1);

    OwnerExecutor(Owner owner) {
        this.owner = owner;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Arguments.notNull(command, "command");
        return start(new ViewTask<>(Executors.callable(command, null), 0), delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Arguments.notNull(callable, "callable");
        return start(new ViewTask<>(callable, 0), delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return periodic(command, initialDelay, period, unit, true);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return periodic(command, initialDelay, delay, unit, false);
    }

    private ScheduledFuture<?> periodic(Runnable command, long initialDelay, long period, TimeUnit unit, boolean rate) {
        Arguments.notNull(command, "command");
        Arguments.notNull(unit, "unit");
        if (period <= 0) {
            throw new IllegalArgumentException("period must be positive: " + period + " " + unit);
        }
        ViewTask<Object> task = new ViewTask<>(Executors.callable(command, null), rate ? 1 : -1);
        task.period = Duration.of(period, unit.toChronoUnit());
        return start(task, initialDelay, unit);
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    private <V> ViewTask<V> start(ViewTask<V> task, long delay, TimeUnit unit) {
        Arguments.notNull(unit, "unit");
        Duration first = Duration.of(Math.max(0, delay), unit.toChronoUnit());
        if (shutDown) {
            throw new RejectedExecutionException("this ScheduledExecutorService view of " + owner + " is shut down");
        }
        live.add(task);
        TimerHandler handler = event -> task.fire();
        try {
            if (task.kind == 0) {
                task.timer = owner.schedule(first, handler);
            } else if (task.kind > 0) {
                task.timer = owner.scheduleAtFixedRate(first, task.period, handler);
            } else {
                task.timer = owner.scheduleWithFixedDelay(first, task.period, handler);
            }
        } catch (IllegalStateException closed) {
            live.remove(task);
            throw new RejectedExecutionException("timer owner " + owner.name() + " is closed", closed);
        } catch (RuntimeException e) {
            live.remove(task);
            throw e;
        }
        if (task.isDone()) {
            task.timer.cancel(); // a periodic task that threw (or was cancelled) before its timer was known
        }
        if (shutDown && task.kind != 0) {
            task.cancel(false); // raced with shutdown, which cancels periodic tasks
        }
        return task;
    }

    @Override
    public void shutdown() {
        shutDown = true;
        for (ViewTask<?> task : live) {
            if (task.kind != 0) {
                task.cancel(false);
            }
        }
        checkTerminated();
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutDown = true;
        List<Runnable> neverRan = new ArrayList<>();
        for (ViewTask<?> task : live) {
            Timer timer = task.timer;
            if (timer != null && timer.cancel() && !task.isRunning()) {
                neverRan.add(task);
            }
            live.remove(task);
            task.interruptIfRunning();
        }
        checkTerminated();
        return neverRan;
    }

    private void checkTerminated() {
        if (shutDown && live.isEmpty() && terminated.getCount() > 0) {
            terminated.countDown();
            owner.forget(this);
        }
    }

    @Override
    public boolean isShutdown() {
        return shutDown;
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
        shutDown = true;
        for (ViewTask<?> task : live) {
            task.cancel(false);
        }
        checkTerminated();
    }

    /** One task of the view. */
    private final class ViewTask<V> extends FutureTask<V> implements RunnableScheduledFuture<V> {
        /** 0 one-shot, 1 fixed rate, -1 fixed delay. */
        final int kind;
        /** Written before the timer starts. */
        Duration period;
        /** Written by start before the task is published to other threads through the timer. */
        volatile Timer timer;
        /** The thread running the task now, or null; guarded by this. */
        private Thread runner;

        ViewTask(Callable<V> callable, int kind) {
            super(callable);
            this.kind = kind;
        }

        void fire() {
            synchronized (this) {
                runner = Thread.currentThread();
            }
            try {
                if (kind == 0) {
                    run();
                } else if (!runAndReset()) {
                    Timer t = timer;
                    if (t != null) {
                        t.cancel(); // threw or was cancelled: no further runs (the JDK rule)
                    }
                    live.remove(this);
                    checkTerminated();
                }
            } finally {
                synchronized (this) {
                    runner = null;
                }
                Thread.interrupted(); // an interrupt from shutdownNow must not leak to the owner's next handler
            }
        }

        synchronized boolean isRunning() {
            return runner != null;
        }

        synchronized void interruptIfRunning() {
            if (runner != null) {
                runner.interrupt();
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            Timer t = timer;
            if (cancelled && t != null) {
                t.cancel();
            }
            return cancelled;
        }

        @Override
        protected void done() {
            live.remove(this);
            checkTerminated();
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
