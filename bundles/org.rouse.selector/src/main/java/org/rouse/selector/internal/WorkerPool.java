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
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's upcall pool. An upcall goes straight to an idle worker, by default the one that became idle most
 * recently. With no idle worker and fewer workers than recently active channels (the engine's demand), the pool
 * starts a thread for it at once and has its grower start the rest of one worker per such channel, idle. Otherwise
 * the upcall waits in a bounded FIFO backlog for a busy worker to finish; if it is still waiting after the grace
 * period ({@code pool.grow.after.micros}), the pool starts a thread for it, at most one per grace period, while it has
 * fewer than its maximum. Below the core size, with no worker at all, or with a grace of 0 the pool starts a thread
 * at once instead of queueing (with a grace of 0 none in advance). Threads above the core size end after the idle
 * timeout.
 */
final class WorkerPool implements Executor {

    /*
     * Implementation notes.
     *
     * Sources. java.util.concurrent.SynchronousQueue's non-fair TransferStack (waiters as a LIFO stack: the worker
     * that went idle last takes the next upcall); Go's runtime scheduler (idle Ms and Ps pushed and popped at the head
     * of their lists under sched.lock); Tomcat's TaskQueue (grow the pool before queueing); LinkedBlockingQueue
     * (takers signal each other, the cascade below).
     *
     * Why not a ThreadPoolExecutor. Its workers take tasks from a BlockingQueue. With a LinkedBlockingQueue the
     * waiting workers form a FIFO, so work is spread over every idle thread in turn: each upcall lands on the coldest
     * thread and, while upcalls come more often than once per idle timeout, none stays idle long enough to retire, so
     * a burst's threads stay forever. With a SynchronousQueue (non-fair: a LIFO stack of waiters, the order this pool
     * copies) there is no backlog at all. And with a bounded queue ThreadPoolExecutor.execute offers to the queue
     * before it adds a thread above the core size, so the pool only grows once the queue is full; Tomcat's TaskQueue
     * refuses the offer while the pool may grow to get around that. omniORB's pool killed idle threads after a fixed
     * 10 s, so each burst re-created them; here the idle timeout is configuration (pool.idle.timeout.seconds) and the
     * most recently idle worker is served first, so the others stay idle long enough to retire.
     *
     * Why a grace period before growing. Growing whenever no worker is idle makes the pool track the highest number
     * of upcalls that ever ran at once, and that peak is a matter of scheduling: on 2 cores with 64 connections each
     * burst reached a new peak now and then, and each new peak cost threads. But a busy worker running a short upcall
     * is free again within microseconds, so an upcall that waits for it briefly is served as fast as one handed to a
     * new thread would be (which must first be created and scheduled). A thread is worth starting only when the
     * workers are not finishing, i.e. blocked or running long upcalls; the age of the oldest waiting upcall detects
     * exactly that, and it also bounds how long any upcall waits behind blocked workers: about one grace period per
     * thread the pool has to add, while it is below its maximum. Tomcat's and ThreadPoolExecutor's growth policies
     * (grow before queueing, grow only when the queue is full) both react to the queue's length, not to its age.
     *
     * Why one worker per recently active channel first. The grace alone keeps the pool below the number of
     * connections calling back to back, and then the engine keeps cutting watch periods short to serve the other
     * connections, so calls go back through the select loop (selector-sequential-16: p50 1.42x the inline NIO server,
     * against 1.02x growing at once). A channel has at most one upcall at a time, so the recently active channels
     * bound how many upcalls can overlap; that count, unlike the peak of overlapping upcalls, does not depend on
     * scheduling. Growing at once below it and, on the first such growth, starting the rest of it in advance makes
     * the pool reach its size in the first burst of a steady set of connections, where growing only for each new
     * peak crept up by 1.7-3 threads per later burst (docs/performance.md, selector pool sections). The demand is
     * read through an IntSupplier (ChannelActivity.recent() in the engine), a few volatile reads under `lock`.
     *
     * Layout. One ReentrantLock, `lock`, guards everything shared: `idle` (parked workers; the head went idle last),
     * `backlog` (upcalls waiting, oldest first, each with the time it was queued), `workers` (every worker counted
     * alive), `alive`, `state`, `wakeInFlight`, each Worker's `woken`, the grower's fields (`grower`, `growerParked`,
     * `lastGrowth`, `topUpTo`) and the statistics. `backlogSize`, `anyIdle`, `aliveMirror` and `spare` are volatile
     * mirrors for the engine's lock-free reads on the upcall path, written under `lock` at the end of every critical
     * section that changes what they mirror (enqueue(), publish()).
     *
     * Algorithm. Idle workers park with LockSupport.
     * - execute: with an idle worker, append the upcall to `backlog` and, unless a woken worker is already on its way
     *   (`wakeInFlight`), take one worker off `idle` (the head = most recently idle when `lifo`, else the tail),
     *   mark it `woken` and unpark it after unlocking; if the pool has grown for demand before (`followsDemand`)
     *   and the demand has risen above `alive` since, also raise `topUpTo` to it and arm the grower, so the whole
     *   demand is reached in the burst that raised it, not at a later burst's first overlap. With none idle and
     *   fewer than `maxThreads` counted alive, count
     *   a new worker and start its thread with the upcall as its first if the grace is 0, fewer than `coreThreads`
     *   or no workers are alive, the backlog is full (grow before queueing, as Tomcat's TaskQueue), or fewer workers
     *   are alive than the demand; in that last case (grace > 0) also set `topUpTo` to the demand (capped at
     *   `maxThreads`) and arm or unpark the grower, which starts workers without a first upcall until `alive`
     *   reaches it (they go straight to `idle`), and set `followsDemand`. Otherwise
     *   append to the bounded `backlog` (or reject when it is full and `maxThreads` are alive) and, below
     *   `maxThreads`, make sure the grower is watching: start it on first use, unpark it if it parked without a
     *   deadline (`growerParked`).
     * - The grower, one thread per pool started on the first deferred upcall or top-up, first starts idle workers
     *   while `alive < topUpTo` (then clears `topUpTo`); after that it parks until the backlog's head has
     *   waited `growAfterNanos` and at least `growAfterNanos` have passed since it last grew (`lastGrowth`). Then, if
     *   that head still waits, no worker is idle and fewer than `maxThreads` are alive, it takes the head off the
     *   backlog and starts a new worker with it as its first upcall. With nothing to grow for (backlog empty, a worker
     *   idle, or `maxThreads` alive) it parks without a deadline until execute unparks it; it ends on shutdown. While
     *   upcalls keep arriving and being served within the grace, it wakes at most about once per grace period.
     * - A worker that finishes an upcall, or wakes `woken` (clearing `wakeInFlight`), takes the backlog's head and,
     *   if more wait and workers are idle, wakes the next one itself: a cascade, as LinkedBlockingQueue's takers
     *   signal each other. So the select loop, which calls execute for every ready channel and is the bottleneck when
     *   many channels are ready at once (SelectorSequential with 256 connections), unparks at most one worker per
     *   batch of ready channels instead of one per channel. With the backlog empty the worker pushes itself on the
     *   head of `idle` and parks until woken, the pool shuts down, or its idle deadline passes while more than
     *   `coreThreads` workers are alive (then it leaves `idle` and ends).
     * - shutdown: state SHUTDOWN, wake every idle worker (they end); busy and woken workers drain the backlog, then
     *   end. shutdownNow: state STOP, drop the backlog, interrupt every worker.
     * If a thread cannot be started (the JVM is out of native threads), the reservation is undone and the task is
     * rejected; upcalls queued in that window are taken by the other workers, or by the next execute's new thread.
     *
     * Invariants (all under `lock`, at every unlock; checked by checkInvariants() in tests):
     * 1. While the pool runs, `backlog` non-empty implies `idle` empty or `wakeInFlight`: execute queues with idle
     *    workers only together with a wake-up (or behind one in flight), a worker goes idle only after finding the
     *    backlog empty, and a woken worker clears `wakeInFlight` in the same critical section in which it takes a
     *    task and passes the wake-up on. With `idle` empty, every worker counted alive is busy or woken and looks at
     *    the backlog before it parks, so no upcall is stranded.
     * 2. `woken` is set only on a worker taken off `idle`, and on at most one worker: exactly while `wakeInFlight`.
     *    So a worker that decides to retire (in one critical section with leaving `idle`, after checking `woken`) is
     *    never the one a wake-up was meant for: an upcall queued at the moment the deadline passes still runs.
     * 3. `alive == workers.size() == created - retired <= maxThreads`, and `idle` is a set of distinct members of
     *    `workers`: a worker is counted (and `created` incremented, by execute or the grower) under the lock before
     *    its thread starts, and
     *    uncounted in the same critical section in which it decides to end. At most `coreThreads` workers park
     *    without a deadline, because each checks `alive <= coreThreads` under the lock, counting itself.
     * 4. The volatile mirrors equal what they mirror: `backlogSize == backlog.size()`, `anyIdle == !idle.isEmpty()`,
     *    `aliveMirror == alive`, `spare == anyIdle || alive < maxThreads`.
     * 5. Terminated = state != RUNNING and alive == 0; after a shutdown `terminated` is signalled whenever a worker
     *    leaves, since a worker that shut its own engine down waits in awaitTermination for the others only.
     *
     * 6. No upcall is stranded by the grace: with upcalls queued, no worker idle or woken and fewer than
     *    `maxThreads` alive, the grower is running or parked with a deadline (`growerParked` false), unless the grace
     *    is 0. Every critical section that can leave the backlog non-empty with no idle worker (execute,
     *    queueWithoutGrowing, a worker whose cascade runs out of idle workers) arms the grower. (A worker thread that
     *    fails to start lowers `alive` without arming it; the upcalls then wait for a busy worker.)
     *
     * Costs. execute and each worker's turn between upcalls take `lock` once, for O(1) deque work (plus one read of
     * the demand when no worker is idle); the unpark or thread start happens after unlocking, and threads started in
     * advance are started by the grower, never by the select loop. A queued upcall costs one small holder object (its task and time). An
     * idle worker costs a parked thread and nothing else: no polling; the grower, one parked thread, wakes only
     * while upcalls wait.
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

    /** How long the backlog's head may wait for a busy worker before the grower adds one; 0 = grow at once. */
    private final long growAfterNanos;

    /** Recently active channels: below that many workers an upcall with no idle worker gets a thread at once. */
    private final IntSupplier demand;

    /** Guards every mutable field below. */
    private final ReentrantLock lock = new ReentrantLock();

    /** Signalled (under `lock`) when the pool has shut down and its last worker has left. */
    private final Condition terminated = lock.newCondition();

    /** Parked workers waiting to be woken; the head went idle last. Under `lock`. */
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();

    /** Upcalls waiting for a worker, oldest first. Under `lock`. */
    private final ArrayDeque<Queued> backlog = new ArrayDeque<>();

    /** backlog.size() for lock-free reads (the engine asks on the upcall path); written under `lock`, volatile. */
    private volatile int backlogSize;

    /**
     * Whether an upcall submitted now would find an idle worker or room for a new one, for lock-free reads by the
     * engine's watch period; written under `lock` (publish()) after every change of `idle` or `alive`, volatile.
     */
    private volatile boolean spare = true;

    /** Whether a worker is idle, for lock-free reads; written under `lock` (publish()), volatile. */
    private volatile boolean anyIdle;

    /** `alive`, for lock-free reads by the engine's hand-off ({@link #belowDemand()}); written under `lock` (publish()), volatile. */
    private volatile int aliveMirror;

    /** Every worker counted alive, for shutdownNow. Under `lock`. */
    private final Set<Worker> workers = new HashSet<>();

    /** RUNNING, SHUTDOWN or STOP; only increases. Under `lock`. */
    private int state = RUNNING;

    /** Whether a worker taken off `idle` to serve the backlog has not yet taken its task. Under `lock`. */
    private boolean wakeInFlight;

    /** Workers counted alive (started or about to start). Under `lock`. */
    private int alive;

    /** Workers counted since the pool was created. Under `lock`. */
    private long created;

    /** Workers uncounted (ended) since the pool was created. Under `lock`. */
    private long retired;

    /**
     * Calls of a worker's Thread.start() that have returned (or thrown) since the pool was created; incremented by
     * the starting thread after the call, so `created - startsReturned` are workers counted but not yet started.
     */
    private final java.util.concurrent.atomic.AtomicLong startsReturned = new java.util.concurrent.atomic.AtomicLong();

    /** Upcalls run to completion since the pool was created. Under `lock`. */
    private long completed;

    /** The thread that grows the pool for upcalls waiting past the grace; null until first needed. Under `lock`. */
    private Thread grower;

    /** Whether the grower is parked without a deadline (nothing to grow for); cleared by whoever unparks it. Under `lock`. */
    private boolean growerParked;

    /** System.nanoTime() when the grower last started a worker (initially one grace before creation). Under `lock`. */
    private long lastGrowth;

    /** Workers the grower started for an upcall that waited past the grace. Under `lock`. */
    private long grownAfterWait;

    /** Workers the grower is to have alive, one per recently active channel (0: none asked for). Under `lock`. */
    private int topUpTo;

    /** Workers the grower started idle to reach `topUpTo`. Under `lock`. */
    private long grownForDemand;

    /**
     * Whether upcalls have once overlapped beyond the pool's size while it was below the demand (execute then asked
     * for a top-up); from then on a rise in the demand tops the pool up at the next execute, idle workers or not.
     * Under `lock`.
     */
    private boolean followsDemand;

    /**
     * A pool for an engine.
     *
     * @param demand how many channels were recently active (see {@link ChannelActivity}); read under the pool's lock
     *     when an upcall finds no idle worker, so it must be cheap and must not take locks of its own
     */
    static WorkerPool create(EngineSettings settings, String threadPrefix, IntSupplier demand) {
        return new WorkerPool(settings, threadPrefix, TimeUnit.SECONDS.toNanos(settings.idleTimeoutSeconds()), demand);
    }

    /** For tests: an idle timeout shorter than the configuration allows, and no demand (the grace alone decides). */
    WorkerPool(EngineSettings settings, String threadPrefix, long idleTimeoutNanos) {
        this(settings, threadPrefix, idleTimeoutNanos, () -> 0);
    }

    /** For tests: an idle timeout shorter than the configuration allows. */
    WorkerPool(EngineSettings settings, String threadPrefix, long idleTimeoutNanos, IntSupplier demand) {
        this.demand = demand;
        this.coreThreads = settings.coreThreads();
        this.maxThreads = settings.maxThreads();
        this.queueCapacity = settings.queueCapacity();
        this.lifo = settings.mostRecentlyIdleFirst();
        this.idleTimeoutNanos = idleTimeoutNanos;
        this.threadPrefix = threadPrefix;
        this.growAfterNanos = TimeUnit.MICROSECONDS.toNanos(settings.growAfterMicros());
        this.lastGrowth = System.nanoTime() - growAfterNanos;
    }

    /**
     * Runs {@code task} on an idle worker or, with none idle, after the upcalls queued before it on the first worker
     * that finishes, or on a new worker if it waits longer than the grace period (immediately when the grace is 0,
     * below the core size or with no worker alive).
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
        Thread growerToWake = null;
        Thread growerToUnpark = null;
        lock.lock();
        try {
            if (state != RUNNING) {
                throw new RejectedExecutionException("the selector worker pool has shut down");
            }
            if (!idle.isEmpty()) {
                enqueue(task);
                wake = wakeOneIfNeeded();
                if (followsDemand && growAfterNanos > 0) {
                    // more channels active than when the pool last topped up: top up now, while workers are idle,
                    // rather than at a later burst's first overlap (which would create threads in every new burst)
                    int target = Math.min(demand.getAsInt(), maxThreads);
                    if (alive < target && topUpTo < target) {
                        growerToWake = askForTopUp(target);
                        growerToUnpark = growerToWake == null ? grower : null;
                    }
                }
            } else if (alive < maxThreads && growsAtOnce()) {
                start = newWorker(task);
                if (growAfterNanos > 0 && alive < Math.min(demand.getAsInt(), maxThreads)) {
                    // upcalls overlap beyond what the pool has: the grower starts one worker per recently active
                    // channel, so later overlaps of the same channels find one idle instead of each adding a thread
                    followsDemand = true;
                    growerToWake = askForTopUp(Math.min(demand.getAsInt(), maxThreads));
                    growerToUnpark = growerToWake == null ? grower : null; // running or in a timed park
                }
            } else if (backlog.size() < queueCapacity) {
                enqueue(task);
                growerToWake = armGrower(); // adds a worker if no busy one takes the upcall within the grace
            } else {
                throw new RejectedExecutionException("the selector worker pool is saturated: " + alive
                        + " threads busy and " + backlog.size() + " upcalls queued");
            }
            publish();
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake.thread);
        } else if (start != null) {
            start(start);
        }
        if (growerToWake != null) {
            wakeGrower(growerToWake);
        } else if (growerToUnpark != null) {
            LockSupport.unpark(growerToUnpark); // harmless if it is being started by another caller right now
        }
    }

    /**
     * Under `lock`: asks the grower to have {@code target} workers alive; returns what {@link #armGrower()} returns
     * (if null, the grower is running or in a timed park and needs only an unpark).
     */
    private Thread askForTopUp(int target) {
        topUpTo = target;
        return armGrower();
    }

    /**
     * Under `lock`, after queueing with no idle worker: the grower thread to start (on first use) or unpark (if it
     * parked without a deadline), or null if it is already watching the backlog or the pool cannot grow.
     */
    private Thread armGrower() {
        if (growAfterNanos == 0 || alive >= maxThreads) {
            return null;
        }
        if (grower == null) {
            grower = new Thread(this::grow, threadPrefix + "grower");
            grower.setDaemon(true);
            return grower;
        }
        if (growerParked) {
            growerParked = false;
            return grower;
        }
        return null;
    }

    /** After unlocking: starts or unparks the thread {@link #armGrower()} returned. */
    private void wakeGrower(Thread thread) {
        // only the caller that created it sees it NEW: others get it only once it has run and parked
        if (thread.getState() == Thread.State.NEW) {
            startGrower(thread);
        } else {
            LockSupport.unpark(thread);
        }
    }

    /** Under `lock`, with no idle worker: whether a new upcall gets a new thread now rather than after the grace. */
    private boolean growsAtOnce() {
        return growAfterNanos == 0
                || alive < coreThreads
                || alive == 0
                || backlog.size() >= queueCapacity
                || alive < demand.getAsInt();
    }

    /**
     * Whether fewer workers are alive than channels were recently active (and than the maximum), so that an upcall
     * with no idle worker gets a new thread at once; lock-free (a snapshot). The engine then lets every watch run on
     * rather than cutting one short for the upcall.
     */
    boolean belowDemand() {
        int workersAlive = aliveMirror;
        return workersAlive < maxThreads && workersAlive < demand.getAsInt();
    }

    /** Under `lock`: counts a new worker with {@code first} as its first upcall; the caller starts it after unlocking. */
    private Worker newWorker(Runnable first) {
        Worker worker = new Worker(first, threadPrefix + created);
        alive++;
        created++;
        workers.add(worker);
        return worker;
    }

    /** Under `lock`. */
    private void enqueue(Runnable task) {
        backlog.addLast(new Queued(task, System.nanoTime()));
        backlogSize = backlog.size();
    }

    private void startGrower(Thread thread) {
        try {
            thread.start();
        } catch (Throwable failure) { // out of native threads: queued upcalls still run as busy workers finish
            lock.lock();
            try {
                if (grower == thread) {
                    grower = null; // the next deferred upcall tries again
                }
            } finally {
                lock.unlock();
            }
            LOG.error("Selector worker pool: could not start its grower thread", failure);
        }
    }

    /**
     * The grower's loop: starts a worker for the backlog's head once it has waited past the grace (and a grace period
     * has passed since the last growth); ends when the pool shuts down.
     */
    private void grow() {
        while (true) {
            Worker start = null;
            Queued taken = null;
            boolean untimed = false;
            long parkNanos = 0;
            lock.lock();
            try {
                if (state != RUNNING) {
                    return;
                }
                Queued head = backlog.peekFirst();
                if (alive < topUpTo) {
                    start = newWorker(null); // idle once started: the next overlapping upcall finds it
                    grownForDemand++;
                    publish();
                } else if (head == null) {
                    topUpTo = 0;
                    growerParked = true; // execute unparks it when it queues an upcall
                    untimed = true;
                } else if (!idle.isEmpty() || alive >= maxThreads) {
                    topUpTo = 0;
                    parkNanos = growAfterNanos; // a wake-up in flight, or nothing to grow to now: look again later
                } else {
                    topUpTo = 0;
                    long from = head.since - lastGrowth > 0 ? head.since : lastGrowth;
                    long now = System.nanoTime();
                    long wait = from + growAfterNanos - now;
                    if (wait <= 0) {
                        taken = backlog.pollFirst();
                        backlogSize = backlog.size();
                        start = newWorker(taken.task);
                        lastGrowth = now;
                        grownAfterWait++;
                        publish();
                    } else {
                        parkNanos = wait;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (start != null && taken == null) {
                try {
                    start(start);
                } catch (RejectedExecutionException failure) { // start() has uncounted the worker
                    stopTopUp();
                    LOG.error("Selector worker pool: could not start a worker for recently active channels", failure);
                }
            } else if (start != null) {
                try {
                    start(start);
                } catch (RejectedExecutionException failure) { // start() has uncounted the worker
                    requeueAtHead(taken);
                    LOG.error("Selector worker pool: could not start a worker for a waiting upcall", failure);
                }
            } else if (untimed) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, parkNanos);
            }
        }
    }

    /** After a worker failed to start (no native threads left): the pool grows for demand no more until asked again. */
    private void stopTopUp() {
        lock.lock();
        try {
            topUpTo = 0;
        } finally {
            lock.unlock();
        }
    }

    /** Puts back an upcall the grower took for a worker that could not start, ahead of the others. */
    private void requeueAtHead(Queued queued) {
        Worker wake;
        lock.lock();
        try {
            backlog.addFirst(queued);
            backlogSize = backlog.size();
            wake = wakeOneIfNeeded(); // with none idle, the grower (running) looks at it again after the grace
            publish();
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake.thread);
        }
    }

    /** Under `lock`, after `idle` or `alive` changed: refreshes the lock-free view {@link #hasSpareWorker()} reads. */
    private void publish() {
        aliveMirror = alive;
        anyIdle = !idle.isEmpty();
        spare = anyIdle || alive < maxThreads;
    }

    /**
     * Under `lock`: takes the idle worker to wake next (the most recently idle one when {@code lifo}) if upcalls wait
     * and no woken worker is on its way to them yet; the caller unparks it after unlocking.
     */
    private Worker wakeOneIfNeeded() {
        if (wakeInFlight || backlog.isEmpty() || idle.isEmpty()) {
            return null;
        }
        Worker worker = lifo ? idle.pollFirst() : idle.pollLast();
        worker.woken = true;
        wakeInFlight = true;
        return worker;
    }

    private void start(Worker worker) {
        try {
            worker.thread.start();
            startsReturned.incrementAndGet();
        } catch (Throwable failure) {
            startsReturned.incrementAndGet();
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
     * No new upcalls; those not started are dropped and returned, and every worker is interrupted but the calling one
     * (an upcall that shuts its engine down: the interrupt would land in the middle of that shutdown, and its upcall
     * ends by itself when the caller returns).
     *
     * @return the upcalls that will not run
     */
    List<Runnable> shutdownNow() {
        lock.lock();
        try {
            state = STOP;
            List<Runnable> dropped = new ArrayList<>(backlog.size());
            for (Queued queued : backlog) {
                dropped.add(queued.task);
            }
            backlog.clear();
            backlogSize = 0;
            Thread me = Thread.currentThread();
            for (Worker worker : workers) {
                if (worker.thread != me) {
                    worker.thread.interrupt();
                }
            }
            wakeIdleWorkers();
            signalIfTerminated();
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until, after a shutdown, every worker has ended; called by a worker (an upcall that shuts its engine
     * down), every other worker, since the caller ends only once its upcall has returned.
     */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            int self = isWorker(Thread.currentThread()) ? 1 : 0;
            while (state == RUNNING || alive > self) {
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

    /**
     * Worker threads counted as created whose start has not returned yet (the creator starts them after unlocking,
     * the grower several in a row): what a count of started threads taken now does not include yet.
     */
    long threadsStarting() {
        long returned = startsReturned.get(); // read first: it never exceeds created
        lock.lock();
        try {
            return created - returned;
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

    /** The most worker threads the pool grows to. */
    int maxThreads() {
        return maxThreads;
    }

    /** Upcalls waiting for a worker; lock-free. */
    int queued() {
        return backlogSize;
    }

    /**
     * Whether no upcall waits and an upcall submitted now would find an idle worker or room for a new thread;
     * lock-free (a snapshot that may be stale by the time it is used, which only makes a watch a little early or late).
     */
    boolean hasSpareWorker() {
        return spare && backlogSize == 0;
    }

    /** Whether a worker is idle now; lock-free (a snapshot). */
    boolean hasIdleWorker() {
        return anyIdle;
    }

    /**
     * Like {@link #execute} but never starts a thread at once: the caller knows a busy worker is about to look at the
     * backlog (the engine has just cut a watching worker's watch short). With an idle worker it is handed over as
     * usual; otherwise it may still get a new thread once it has waited past the grace, as any queued upcall.
     *
     * @return {@code false} if the pool has shut down or the backlog is full (nothing was queued)
     */
    boolean queueWithoutGrowing(Runnable task) {
        Worker wake;
        Thread growerToWake = null;
        lock.lock();
        try {
            if (state != RUNNING || (idle.isEmpty() && backlog.size() >= queueCapacity)) {
                return false;
            }
            enqueue(task);
            wake = wakeOneIfNeeded();
            if (idle.isEmpty()) {
                growerToWake =
                        armGrower(); // should the worker expected to take it block instead, the grace still holds
            }
            publish();
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake.thread);
        } else if (growerToWake != null) {
            wakeGrower(growerToWake);
        }
        return true;
    }

    /** Worker threads started for an upcall that had waited past the grace period, since the pool started. */
    long threadsGrownAfterWait() {
        lock.lock();
        try {
            return grownAfterWait;
        } finally {
            lock.unlock();
        }
    }

    /** Worker threads started idle to keep one per recently active channel, since the pool started. */
    long threadsGrownForDemand() {
        lock.lock();
        try {
            return grownForDemand;
        } finally {
            lock.unlock();
        }
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

    /** Under `lock`: wakes every idle worker and the grower, which end. */
    private void wakeIdleWorkers() {
        for (Worker worker; (worker = idle.pollFirst()) != null; ) {
            LockSupport.unpark(worker.thread);
        }
        if (grower != null) {
            growerParked = false;
            LockSupport.unpark(grower);
        }
        publish();
    }

    /** Uncounts a worker that ends. Under `lock`, in the critical section that decided it ends. */
    private void leave(Worker worker) {
        if (workers.remove(worker)) {
            idle.removeLastOccurrence(worker);
            alive--;
            publish();
            retired++;
            signalIfTerminated();
        }
    }

    /**
     * Asserts the invariants of the implementation notes (1 to 4) under `lock`, for tests. They hold at every unlock,
     * so this may be called at any time, also while upcalls run.
     *
     * @throws IllegalStateException naming the first invariant found broken
     */
    void checkInvariants() {
        lock.lock();
        try {
            check(
                    state != RUNNING || backlog.isEmpty() || idle.isEmpty() || wakeInFlight,
                    "1: upcalls wait while workers are idle and none is woken");
            int wokenWorkers = 0;
            for (Worker worker : workers) {
                if (worker.woken) {
                    wokenWorkers++;
                    check(!idle.contains(worker), "2: a woken worker is still on idle");
                }
            }
            check(
                    wokenWorkers == (wakeInFlight ? 1 : 0),
                    "2: " + wokenWorkers + " woken workers, wakeInFlight " + wakeInFlight);
            check(alive == workers.size(), "3: alive " + alive + " but " + workers.size() + " workers");
            check(alive == created - retired, "3: alive " + alive + " != created - retired");
            check(alive <= maxThreads, "3: alive " + alive + " > maxThreads " + maxThreads);
            check(workers.containsAll(idle), "3: an idle worker is not counted");
            check(new HashSet<>(idle).size() == idle.size(), "3: a worker is on idle twice");
            check(backlogSize == backlog.size(), "4: backlogSize " + backlogSize + " != " + backlog.size());
            check(anyIdle == !idle.isEmpty(), "4: anyIdle " + anyIdle);
            check(aliveMirror == alive, "4: aliveMirror " + aliveMirror + " != alive " + alive);
            check(spare == (anyIdle || alive < maxThreads), "4: spare " + spare);
            check(
                    state != RUNNING
                            || backlog.isEmpty()
                            || !idle.isEmpty()
                            || wakeInFlight
                            || alive >= maxThreads
                            || growAfterNanos == 0
                            || (grower != null && !growerParked),
                    "6: upcalls wait below the maximum with no grower watching them");
        } finally {
            lock.unlock();
        }
    }

    private static void check(boolean holds, String invariant) {
        if (!holds) {
            throw new IllegalStateException("WorkerPool invariant " + invariant);
        }
    }

    /** Under `lock`. */
    /** After a shutdown, on every worker's end: a worker waiting in awaitTermination waits for the others only. */
    private void signalIfTerminated() {
        if (state != RUNNING) {
            terminated.signalAll();
        }
    }

    /** Whether {@code thread} is one of the workers counted alive. Under `lock`. */
    private boolean isWorker(Thread thread) {
        for (Worker worker : workers) {
            if (worker.thread == thread) {
                return true;
            }
        }
        return false;
    }

    /** An upcall in the backlog and the System.nanoTime() at which it was queued; immutable. */
    private record Queued(Runnable task, long since) {}

    /** One worker thread: runs its first upcall, then takes upcalls from the backlog until it ends. */
    private final class Worker implements Runnable {

        final Thread thread;

        /** Set by whoever takes this worker off `idle` to serve the backlog, cleared by the worker. Under `lock`. */
        boolean woken;

        /** Worker thread only (before it starts: the thread that starts it); null for a worker started idle. */
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
                if (task == null) {
                    task = next(false); // started idle (a top-up): wait for an upcall like any idle worker
                }
                while (task != null) {
                    runSafely(task);
                    task = next(true);
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

        /**
         * The next task, or null once this worker has been uncounted and must end.
         *
         * @param finished whether the worker has just run a task (counted as completed)
         */
        private Runnable next(boolean finished) {
            boolean onIdle = false;
            boolean counted = !finished;
            long deadline = 0;
            while (true) {
                Worker wake = null;
                Thread growerToWake = null;
                Runnable task = null;
                boolean end = false;
                boolean timed = false;
                long remaining = 0;
                lock.lock();
                try {
                    if (!counted) {
                        completed++;
                        counted = true;
                    }
                    if (woken) { // taken off `idle` by execute or another worker: the backlog has work
                        woken = false;
                        wakeInFlight = false;
                        onIdle = false;
                    }
                    if (state == STOP) {
                        leave(this);
                        end = true;
                    } else if (!onIdle) {
                        Queued queued = backlog.pollFirst();
                        task = queued == null ? null : queued.task;
                        if (task != null) {
                            backlogSize = backlog.size();
                            wake = wakeOneIfNeeded(); // pass the wake-up on while more wait (a cascade)
                            if (wake == null && !backlog.isEmpty() && idle.isEmpty()) {
                                growerToWake = armGrower(); // the cascade ran out of idle workers: invariant 6
                            }
                        } else if (state == SHUTDOWN) {
                            leave(this);
                            end = true;
                        } else {
                            idle.addFirst(this);
                            onIdle = true;
                            deadline = System.nanoTime() + idleTimeoutNanos;
                        }
                    } else if (state != RUNNING) { // woken by shutdown
                        leave(this);
                        end = true;
                    }
                    if (task == null && !end) {
                        timed = alive > coreThreads;
                        remaining = deadline - System.nanoTime();
                        if (timed && remaining <= 0) {
                            leave(this); // off `idle` in the same critical section: nobody can wake it now
                            end = true;
                        }
                        Thread.interrupted(); // a stale interrupt would turn park into a spin; STOP is seen above
                    }
                    publish();
                } finally {
                    lock.unlock();
                }
                if (wake != null) {
                    LockSupport.unpark(wake.thread);
                } else if (growerToWake != null) {
                    wakeGrower(growerToWake);
                }
                if (task != null) {
                    return clearInterrupt(task);
                }
                if (end) {
                    return null;
                }
                if (timed) {
                    LockSupport.parkNanos(this, remaining);
                } else {
                    LockSupport.park(this);
                }
            }
        }

        /** An interrupt meant for the task that just ended (shutdownNow) must not reach the next. */
        private Runnable clearInterrupt(Runnable task) {
            Thread.interrupted();
            return task;
        }
    }
}
