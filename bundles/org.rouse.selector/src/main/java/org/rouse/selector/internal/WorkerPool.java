package org.rouse.selector.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's upcall pool. An upcall goes straight to an idle worker, by default the one that became idle most
 * recently; with no idle worker the pool starts a thread while it has fewer than its maximum, and only then queues
 * the upcall in a bounded backlog. Threads start lazily; those above the core size end after the idle timeout.
 */
final class WorkerPool implements Executor {

    /*
     * Implementation notes.
     *
     * Why not a ThreadPoolExecutor. Its workers take tasks from a BlockingQueue. With a LinkedBlockingQueue the waiting
     * workers form a FIFO, so work is spread over every idle thread in turn: each upcall lands on the coldest thread
     * and, while upcalls come more often than once per idle timeout, none stays idle long enough to retire, so a
     * burst's threads stay forever. With a SynchronousQueue (non-fair: a LIFO stack of waiters, the order this pool
     * copies) there is no backlog at all. And a bounded queue only grows the pool once it is full, hence the Tomcat
     * TaskQueue trick this pool's previous form needed. omniORB's pool, the cautionary tale of the issue, killed idle
     * threads after a fixed 10 s, so each burst re-created them.
     *
     * Algorithm. One ReentrantLock guards everything shared: the deque of idle workers, the backlog, the counts and
     * the run state. Each worker has a private hand-off slot (`handed`) and parks with LockSupport, like a waiter
     * in SynchronousQueue's TransferStack. Go's scheduler makes the same choice: idle Ms (`mput`/`mget`) and idle Ps
     * (`pidleput`/`pidleget`) are pushed and popped at the head of their lists under `sched.lock`.
     * - execute: under the lock, take an idle worker (the head of `idle` = most recently idle when `lifo`, else the
     *   tail = longest idle), put the task in its slot and, after unlocking, unpark it. With no idle worker and fewer
     *   than `maxThreads` counted alive, count a new worker and, after unlocking, start its thread with the task as
     *   its first (grow before queueing, as Tomcat's TaskQueue). Otherwise append to the bounded `backlog`, or reject.
     * - A worker that finishes a task takes the lock, takes the backlog's head if there is one, and otherwise pushes
     *   itself on the head of `idle` and parks until its slot is filled, the pool shuts down, or its idle deadline
     *   passes while more than `coreThreads` workers are alive (then it removes itself and ends). A worker that parks
     *   while at most `coreThreads` are alive parks without a deadline; it re-checks on every wake-up.
     * - shutdown: state SHUTDOWN, wake every idle worker (they end); busy workers drain the backlog, then end.
     *   shutdownNow: state STOP, drop the backlog and every filled-but-unstarted slot, interrupt every worker.
     *
     * Invariants (all under `lock`):
     * - While the pool runs, a worker is in `idle` exactly while it waits with an empty slot; execute removes it before
     *   filling its slot, so a slot is filled at most once per idle period and a task is never handed to a worker
     *   that has decided to end: the decision to retire and the removal from `idle` happen in one critical section,
     *   and a waking worker looks at its slot before it looks at its deadline. A task handed over at the moment the
     *   deadline passes therefore runs.
     * - `backlog` non-empty implies `idle` empty (a worker goes idle only after finding the backlog empty, and execute
     *   queues only when no worker is idle) and, outside the window in which a thread cannot be started, at least one
     *   worker counted alive and busy, which will take it.
     * - `alive <= maxThreads`: a worker is counted (and `created` incremented) under the lock before its thread
     *   starts, and uncounted in the same critical section in which it decides to end, so a thread leaving never makes
     *   room for queueing that nobody serves. At most `coreThreads` workers park without a deadline, because each
     *   checks `alive <= coreThreads` under the lock, counting itself.
     * - Terminated = state != RUNNING and alive == 0; `terminated` is signalled when the last worker leaves.
     *
     * If a thread cannot be started (the JVM is out of native threads), the reservation is undone and the task is
     * rejected; upcalls queued in that window are taken by the other workers, or by the next execute's new thread.
     */

    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    private static final int RUNNING = 0;
    private static final int SHUTDOWN = 1;
    private static final int STOP = 2;

    private final int coreThreads;
    private final int maxThreads;
    private final int queueCapacity;
    private final long idleTimeoutNanos;
    private final boolean lifo;
    private final String threadPrefix;

    /** Guards every mutable field below. */
    private final ReentrantLock lock = new ReentrantLock();

    /** Signalled (under `lock`) when the pool has shut down and its last worker has left. */
    private final Condition terminated = lock.newCondition();

    /** Parked workers with an empty slot; the head went idle last. Under `lock`. */
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();

    /** Upcalls waiting for a worker, oldest first. Under `lock`. */
    private final ArrayDeque<Runnable> backlog = new ArrayDeque<>();

    /** backlog.size() for lock-free reads (the engine asks on the upcall path); written under `lock`, volatile. */
    private volatile int backlogSize;

    /** Every worker counted alive, for shutdownNow. Under `lock`. */
    private final Set<Worker> workers = new HashSet<>();

    /** RUNNING, SHUTDOWN or STOP; only increases. Under `lock`. */
    private int state = RUNNING;

    /** Workers counted alive (started or about to start). Under `lock`. */
    private int alive;

    /** Statistics since the pool was created. Under `lock`. */
    private long created;

    private long retired;
    private long completed;

    static WorkerPool create(EngineSettings settings, String threadPrefix) {
        return new WorkerPool(settings, threadPrefix, TimeUnit.SECONDS.toNanos(settings.idleTimeoutSeconds()));
    }

    /** For tests: an idle timeout shorter than the configuration allows. */
    WorkerPool(EngineSettings settings, String threadPrefix, long idleTimeoutNanos) {
        this.coreThreads = settings.coreThreads();
        this.maxThreads = settings.maxThreads();
        this.queueCapacity = settings.queueCapacity();
        this.lifo = settings.mostRecentlyIdleFirst();
        this.idleTimeoutNanos = idleTimeoutNanos;
        this.threadPrefix = threadPrefix;
    }

    /**
     * Runs {@code task} on an idle worker, a new worker or, with {@code maxThreads} busy, after the upcalls queued
     * before it.
     *
     * @throws RejectedExecutionException when the pool has shut down, or every thread is busy and the backlog full
     */
    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        Worker wake = null;
        Worker start = null;
        lock.lock();
        try {
            if (state != RUNNING) {
                throw new RejectedExecutionException("the selector worker pool has shut down");
            }
            wake = lifo ? idle.pollFirst() : idle.pollLast();
            if (wake != null) {
                wake.handed = task;
            } else if (alive < maxThreads) {
                start = new Worker(task, threadPrefix + created);
                alive++;
                created++;
                workers.add(start);
            } else if (backlog.size() < queueCapacity) {
                backlog.addLast(task);
                backlogSize = backlog.size();
            } else {
                throw new RejectedExecutionException("the selector worker pool is saturated: " + alive
                        + " threads busy and " + backlog.size() + " upcalls queued");
            }
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake.thread);
        } else if (start != null) {
            start(start);
        }
    }

    private void start(Worker worker) {
        try {
            worker.thread.start();
        } catch (Throwable failure) {
            lock.lock();
            try {
                leave(worker);
            } finally {
                lock.unlock();
            }
            throw new RejectedExecutionException("the selector worker pool could not start a thread", failure);
        }
    }

    /** No new upcalls; those queued still run, then the workers end. Idempotent. */
    void shutdown() {
        lock.lock();
        try {
            if (state == RUNNING) {
                state = SHUTDOWN;
            }
            wakeIdleWorkers();
            signalIfTerminated();
        } finally {
            lock.unlock();
        }
    }

    /**
     * No new upcalls; those not started are dropped and returned, and every worker is interrupted.
     *
     * @return the upcalls that will not run
     */
    List<Runnable> shutdownNow() {
        lock.lock();
        try {
            state = STOP;
            List<Runnable> dropped = new ArrayList<>(backlog);
            backlog.clear();
            backlogSize = 0;
            for (Worker worker : workers) {
                if (worker.handed != null) {
                    dropped.add(worker.handed);
                    worker.handed = null;
                }
                worker.thread.interrupt();
            }
            wakeIdleWorkers();
            signalIfTerminated();
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until, after a shutdown, every worker has ended. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (state == RUNNING || alive > 0) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = terminated.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean isShutdown() {
        lock.lock();
        try {
            return state != RUNNING;
        } finally {
            lock.unlock();
        }
    }

    /** Worker threads created since the pool started. */
    long threadsCreated() {
        lock.lock();
        try {
            return created;
        } finally {
            lock.unlock();
        }
    }

    /** Worker threads that ended (idle timeout or shutdown) since the pool started. */
    long threadsRetired() {
        lock.lock();
        try {
            return retired;
        } finally {
            lock.unlock();
        }
    }

    /** Worker threads alive now (busy or idle). */
    int threads() {
        lock.lock();
        try {
            return alive;
        } finally {
            lock.unlock();
        }
    }

    /** Worker threads waiting for an upcall now. */
    int idleThreads() {
        lock.lock();
        try {
            return idle.size();
        } finally {
            lock.unlock();
        }
    }

    /** Upcalls waiting for a worker; lock-free. */
    int queued() {
        return backlogSize;
    }

    /** Upcalls run to completion (returned or thrown) since the pool started. */
    long completed() {
        lock.lock();
        try {
            return completed;
        } finally {
            lock.unlock();
        }
    }

    /** Under `lock`. */
    private void wakeIdleWorkers() {
        for (Worker worker; (worker = idle.pollFirst()) != null; ) {
            LockSupport.unpark(worker.thread);
        }
    }

    /** Uncounts a worker that ends. Under `lock`, in the critical section that decided it ends. */
    private void leave(Worker worker) {
        if (workers.remove(worker)) {
            idle.removeLastOccurrence(worker);
            alive--;
            retired++;
            signalIfTerminated();
        }
    }

    /** Under `lock`. */
    private void signalIfTerminated() {
        if (state != RUNNING && alive == 0) {
            terminated.signalAll();
        }
    }

    /** One worker thread and its hand-off slot. */
    private final class Worker implements Runnable {

        final Thread thread;

        /** The task handed to this idle worker; filled by execute and emptied by the worker, both under `lock`. */
        Runnable handed;

        /** Worker thread only (before it starts: the thread that starts it). */
        private Runnable first;

        Worker(Runnable first, String name) {
            this.first = first;
            this.thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            Runnable task = first;
            first = null;
            try {
                while (task != null) {
                    runSafely(task);
                    task = next();
                }
            } finally {
                lock.lock();
                try {
                    leave(this); // a no-op unless next() itself failed
                } finally {
                    lock.unlock();
                }
            }
        }

        private void runSafely(Runnable task) {
            try {
                task.run();
            } catch (Throwable t) { // the engine's upcalls never throw; if one does, keep the worker serving
                LOG.error("Selector worker {}: a task threw; the worker continues", thread.getName(), t);
            }
        }

        /** The next task, or null once this worker has been uncounted and must end. */
        private Runnable next() {
            lock.lock();
            try {
                completed++;
                if (state == STOP) {
                    leave(this);
                    return null;
                }
                Runnable task = backlog.pollFirst();
                if (task != null) {
                    backlogSize = backlog.size();
                    return clearInterrupt(task);
                }
                if (state == SHUTDOWN) {
                    leave(this);
                    return null;
                }
                idle.addFirst(this);
                long deadline = System.nanoTime() + idleTimeoutNanos;
                while (true) {
                    task = handed;
                    if (task != null) {
                        handed = null;
                        return clearInterrupt(task);
                    }
                    if (state != RUNNING) {
                        leave(this);
                        return null;
                    }
                    boolean timed = alive > coreThreads;
                    long remaining = deadline - System.nanoTime();
                    if (timed && remaining <= 0) {
                        leave(this);
                        return null;
                    }
                    Thread.interrupted(); // a stale interrupt would turn park into a spin; STOP is seen above
                    lock.unlock();
                    try {
                        if (timed) {
                            LockSupport.parkNanos(this, remaining);
                        } else {
                            LockSupport.park(this);
                        }
                    } finally {
                        lock.lock();
                    }
                }
            } finally {
                lock.unlock();
            }
        }

        /** Under `lock`, state not STOP: an interrupt meant for the previous task must not reach the next. */
        private Runnable clearInterrupt(Runnable task) {
            Thread.interrupted();
            return task;
        }
    }
}
