package org.rouse.selector.internal;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's upcall pool: grows to its maximum size before it queues, and lets threads above the core size end
 * after the configured idle timeout.
 */
final class WorkerPool extends ThreadPoolExecutor {

    /*
     * Implementation notes.
     *
     * A plain ThreadPoolExecutor with a bounded queue only adds threads beyond the core size once the queue is full,
     * so a burst of slow upcalls would wait behind two threads while 62 more are allowed. As in Tomcat's TaskQueue,
     * the queue refuses an offer while the pool is below its maximum and every thread is busy (`unfinished`
     * exceeds the pool size), which makes the executor start a thread; if that fails because the pool reached its
     * maximum meanwhile, the rejection handler puts the task in the queue after all, and only a full queue rejects.
     */

    /** Tasks accepted and not yet finished; incremented by execute, decremented after each task. */
    private final AtomicInteger unfinished = new AtomicInteger();

    private final GrowFirstQueue queue;

    /** Worker threads started and ended since the pool was created; incremented by the threads themselves. */
    private final AtomicLong[] threadCounts;

    static WorkerPool create(EngineSettings settings, String threadPrefix) {
        AtomicLong[] counts = {new AtomicLong(), new AtomicLong()};
        return new WorkerPool(
                settings, new GrowFirstQueue(settings.queueCapacity()), threadFactory(threadPrefix, counts), counts);
    }

    /** Worker threads created since the pool started. */
    long threadsCreated() {
        return threadCounts[0].get();
    }

    /** Worker threads that ended (idle timeout or shutdown) since the pool started. */
    long threadsRetired() {
        return threadCounts[1].get();
    }

    /** Worker threads alive now. */
    int threads() {
        return getPoolSize();
    }

    /** Upcalls waiting for a worker. */
    int queued() {
        return queue.size();
    }

    /** Upcalls run to completion since the pool started (approximate while they run). */
    long completed() {
        return getCompletedTaskCount();
    }

    private WorkerPool(EngineSettings settings, GrowFirstQueue queue, ThreadFactory threads, AtomicLong[] counts) {
        super(
                settings.coreThreads(),
                settings.maxThreads(),
                settings.idleTimeoutSeconds(),
                TimeUnit.SECONDS,
                queue,
                threads,
                WorkerPool::queueAfterAll);
        this.queue = queue;
        this.threadCounts = counts;
        queue.pool = this;
    }

    @Override
    public void execute(Runnable task) {
        unfinished.incrementAndGet();
        try {
            super.execute(task);
        } catch (RejectedExecutionException e) {
            unfinished.decrementAndGet();
            throw e;
        }
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
        unfinished.decrementAndGet();
    }

    private static void queueAfterAll(Runnable task, ThreadPoolExecutor executor) {
        WorkerPool pool = (WorkerPool) executor;
        if (pool.isShutdown()) {
            throw new RejectedExecutionException("the selector worker pool has shut down");
        }
        if (!pool.queue.force(task)) {
            throw new RejectedExecutionException("the selector worker pool is saturated: " + pool.getMaximumPoolSize()
                    + " threads busy and " + pool.queue.size() + " upcalls queued");
        }
    }

    private static ThreadFactory threadFactory(String prefix, AtomicLong[] counts) {
        AtomicInteger next = new AtomicInteger();
        return task -> {
            Runnable counted = () -> {
                try {
                    task.run();
                } finally {
                    counts[1].incrementAndGet();
                }
            };
            counts[0].incrementAndGet();
            Thread thread = new Thread(counted, prefix + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Refuses an offer while a new thread should be started instead. */
    private static final class GrowFirstQueue extends LinkedBlockingQueue<Runnable> {

        private static final long serialVersionUID = 1L;

        /** Set once, right after the pool is constructed. */
        transient volatile WorkerPool pool;

        GrowFirstQueue(int capacity) {
            super(capacity);
        }

        @Override
        public boolean offer(Runnable task) {
            WorkerPool p = pool;
            if (p != null) {
                int size = p.getPoolSize();
                if (size < p.getMaximumPoolSize() && p.unfinished.get() > size) {
                    return false; // every thread is busy: let the executor start one
                }
            }
            return super.offer(task);
        }

        boolean force(Runnable task) {
            return super.offer(task);
        }
    }
}
