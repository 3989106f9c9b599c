package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timer engine built into the API bundle that {@link TimerDispatch} uses while no engine service is present (for
 * example while a provider bundle is being updated), so that timers keep firing on time instead of waiting for the
 * next engine.
 *
 * <p>It costs nothing while it is not needed: no thread exists until it is {@linkplain #start() started} and a timer is
 * armed or a task given to it, and {@link #stop()} (called once a real engine has taken its timers) lets its threads
 * end. It keeps the SPI contract: {@code arm} and {@code drain} are linearizable (one lock), each arming expires at
 * most once, never before its deadline, and a drained or stopped standby keeps accepting entries (they wait, with no
 * thread, until they are taken back, drained, or the standby is started again).
 */
final class StandbyTimerEngine implements TimerEngine {

    /*
     * Implementation notes.
     *
     * Layout: a binary min-heap of Nodes by deadline (ties by arming order), each node knowing its index so that
     * disarm is O(log n); the node is the entry's engine slot. One lock (`lock`) guards the heap, `running`,
     * `dispatcher`, `parkedUntil`, `parkedForever` and `workers`.
     *
     * Dispatcher: started by the first arm while running, it takes every due node out under the lock, expires them
     * outside it, and otherwise records where it parks (`parkedUntil`, `parkedForever`), clears `awake` and parks
     * until the earliest deadline. An arm whose deadline is earlier than
     * `parkedUntil` while the dispatcher is not awake sets `awake` and unparks it (LockSupport's permit covers an
     * unpark between the unlock and the park); no other arm wakes it, so the standby never polls. A disarm that empties
     * the heap wakes it too, so that it does not stay parked until a deadline that is gone. With the heap empty
     * it parks once for at most IDLE_LINGER (periodic timers re-arm right after their handler, so the heap is often
     * empty for a moment) and ends if it is still empty; the next arm starts a new one. stop() clears
     * `dispatcher`; a dispatcher thread that finds it is no longer `dispatcher` ends, so a stop followed at once by a
     * start leaves exactly one live dispatcher.
     *
     * Workers: a small pool made by the first execute while running; idle workers end after a keep-alive, and stop()
     * shuts the pool down (tasks already queued still run, as the SPI promises for a drained engine); execute while
     * stopped is refused with RejectedExecutionException, and the front retries on its active engine.
     *
     * Invariants: a node is in the heap iff its index is >= 0; an entry leaves the heap exactly once, by expiry,
     * disarm or drain, each under the lock, so it expires here at most once per arming.
     *
     * Costs: O(log n) arm, disarm and expiry; one thread start per gap in which timers are armed, and the pool's.
     */

    static final String NAME = "standby";

    private static final Logger LOG = LoggerFactory.getLogger(StandbyTimerEngine.class);
    private static final int WORKERS =
            Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));
    private static final long WORKER_KEEP_ALIVE_SECONDS = 5;
    /** How long a dispatcher with nothing armed waits for an arm before it ends. */
    private static final long IDLE_LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final AtomicInteger THREAD_NUMBERS = new AtomicInteger();

    private final Object lock = new Object();
    /** The heap; guarded by {@link #lock}. */
    private Node[] heap = new Node[16];
    /** Nodes in {@link #heap}; guarded by {@link #lock}. */
    private int size;
    /** Arming order, for ties; guarded by {@link #lock}. */
    private long sequence;
    /** Whether the front uses this engine now; written by start/stop under {@link #lock}. */
    private boolean running;
    /** The live dispatcher thread or null; written under {@link #lock}. */
    private Thread dispatcher;
    /** Where the dispatcher parks until; written by it under {@link #lock}, read by arms under it. */
    private long parkedUntil;
    /** Whether the dispatcher parks with nothing armed (any arm wakes it); as {@link #parkedUntil}. */
    private boolean parkedForever;
    /** False only while the dispatcher is (about to be) parked; written under {@link #lock}. */
    private boolean awake = true;
    /** The worker pool or null; made and shut down under {@link #lock}. */
    private ThreadPoolExecutor workers;

    /** Returns from a park; incremented by the dispatcher. */
    private final LongAdder wakeups = new LongAdder();

    @Override
    public String name() {
        return NAME;
    }

    /** Called by the front before it makes this engine active; threads start only when there is work. */
    void start() {
        synchronized (lock) {
            running = true;
            if (size > 0) {
                startDispatcherLocked();
            }
        }
    }

    /** Called by the front once another engine is active and this one is drained: its threads end. */
    void stop() {
        Thread stopping;
        ThreadPoolExecutor pool;
        synchronized (lock) {
            running = false;
            stopping = dispatcher;
            dispatcher = null;
            pool = workers;
            workers = null;
        }
        if (stopping != null) {
            LockSupport.unpark(stopping);
        }
        if (pool != null) {
            pool.shutdown(); // queued tasks still run, then the workers end
        }
    }

    /** The dispatcher thread, or {@code null} when none runs (for tests). */
    Thread dispatcherThread() {
        synchronized (lock) {
            return dispatcher;
        }
    }

    @Override
    public boolean arm(TimerEntry entry) {
        Thread signal = null;
        synchronized (lock) {
            Node node = new Node(this, entry, entry.deadlineNanos(), sequence++);
            add(node);
            entry.engineSlot(node);
            if (running) {
                if (dispatcher == null) {
                    startDispatcherLocked();
                } else if (!awake && (parkedForever || node.deadlineNanos - parkedUntil < 0)) {
                    awake = true;
                    signal = dispatcher;
                }
            }
        }
        if (signal != null) {
            LockSupport.unpark(signal);
        }
        return true;
    }

    @Override
    public boolean disarm(TimerEntry entry) {
        Thread signal = null;
        synchronized (lock) {
            if (!(entry.engineSlot() instanceof Node node && node.engine == this && node.index >= 0)) {
                return false;
            }
            removeAt(node.index);
            if (size == 0 && dispatcher != null && !awake && !parkedForever) {
                awake = true; // parked until a deadline that is gone: let it linger and end instead
                signal = dispatcher;
            }
        }
        if (signal != null) {
            LockSupport.unpark(signal);
        }
        return true;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (lock) {
            if (!running) {
                throw new RejectedExecutionException("the standby timer engine is not in use");
            }
            if (workers == null) {
                workers = new ThreadPoolExecutor(
                        WORKERS,
                        WORKERS,
                        WORKER_KEEP_ALIVE_SECONDS,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        daemonThreads("rouse-timer-standby-worker-"));
                workers.allowCoreThreadTimeOut(true);
            }
            workers.execute(task);
        }
    }

    @Override
    public List<TimerEntry> drain() {
        synchronized (lock) {
            List<TimerEntry> pending = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                heap[i].index = -1;
                pending.add(heap[i].entry);
                heap[i] = null;
            }
            size = 0;
            return pending;
        }
    }

    @Override
    public long dispatcherWakeups() {
        return wakeups.sum();
    }

    @Override
    public int armedCount() {
        synchronized (lock) {
            return size;
        }
    }

    private void startDispatcherLocked() {
        Thread thread = daemonThreads("rouse-timer-standby-dispatcher-").newThread(this::dispatch);
        dispatcher = thread;
        awake = true;
        thread.start();
        LOG.debug("Standby timer engine dispatching {} timers while no timer engine is present", size);
    }

    /** The dispatcher thread's loop. */
    private void dispatch() {
        Thread me = Thread.currentThread();
        List<TimerEntry> due = new ArrayList<>();
        boolean lingered = false; // the last park was with nothing armed
        for (; ; ) {
            long waitNanos;
            boolean idle;
            synchronized (lock) {
                if (dispatcher != me) {
                    return; // stopped, or replaced by a newer dispatcher
                }
                if (lingered && size == 0) {
                    dispatcher = null; // nothing armed for a whole linger: end; the next arm starts another
                    return;
                }
                awake = true;
                long now = System.nanoTime();
                while (size > 0 && heap[0].deadlineNanos - now <= 0) {
                    due.add(heap[0].entry);
                    removeAt(0);
                }
                idle = size == 0;
                waitNanos = idle ? IDLE_LINGER_NANOS : heap[0].deadlineNanos - now;
                if (due.isEmpty()) {
                    parkedForever = idle;
                    parkedUntil = now + waitNanos;
                    awake = false;
                }
            }
            if (!due.isEmpty()) {
                for (TimerEntry entry : due) {
                    try {
                        entry.expire();
                    } catch (RuntimeException | LinkageError e) {
                        LOG.error("Timer entry {} failed to expire", entry, e); // the SPI says never
                    }
                }
                due.clear();
                lingered = false;
                continue; // the clock moved while expiring: look again before parking
            }
            LockSupport.parkNanos(this, waitNanos);
            lingered = idle;
            Thread.interrupted(); // a stray interrupt would make every later park return at once
            wakeups.increment();
        }
    }

    private void add(Node node) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        node.index = size++;
        heap[node.index] = node;
        siftUp(node.index);
    }

    private void removeAt(int index) {
        Node removed = heap[index];
        removed.index = -1;
        int last = --size;
        if (index != last) {
            heap[index] = heap[last];
            heap[index].index = index;
            heap[last] = null;
            siftDown(index);
            siftUp(index);
        } else {
            heap[last] = null;
        }
    }

    private void siftUp(int index) {
        Node node = heap[index];
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            if (!node.before(heap[parent])) {
                break;
            }
            heap[index] = heap[parent];
            heap[index].index = index;
            index = parent;
        }
        heap[index] = node;
        node.index = index;
    }

    private void siftDown(int index) {
        Node node = heap[index];
        for (; ; ) {
            int child = 2 * index + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].before(heap[child])) {
                child++;
            }
            if (!heap[child].before(node)) {
                break;
            }
            heap[index] = heap[child];
            heap[index].index = index;
            index = child;
        }
        heap[index] = node;
        node.index = index;
    }

    private static ThreadFactory daemonThreads(String prefix) {
        return task -> {
            Thread thread = new Thread(task, prefix + THREAD_NUMBERS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One armed entry in the heap; its index is guarded by the engine's lock. */
    private static final class Node {
        final StandbyTimerEngine engine;
        final TimerEntry entry;
        final long deadlineNanos;
        final long sequence;
        int index = -1;

        Node(StandbyTimerEngine engine, TimerEntry entry, long deadlineNanos, long sequence) {
            this.engine = engine;
            this.entry = entry;
            this.deadlineNanos = deadlineNanos;
            this.sequence = sequence;
        }

        boolean before(Node other) {
            long difference = deadlineNanos - other.deadlineNanos;
            return difference != 0 ? difference < 0 : sequence < other.sequence;
        }
    }
}
