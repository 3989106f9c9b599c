package org.rouse.timer.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Daemon threads named {@code prefix-N}, and the engines' way of stopping a pool of them. */
final class NamedThreads implements ThreadFactory {

    private static final Logger LOG = LoggerFactory.getLogger(NamedThreads.class);

    /**
     * Lets the handlers already queued on {@code workers} finish (interrupting them after 10 s) and waits for the
     * threads to end; keeps the caller's interrupt status.
     */
    static void stopWorkers(ExecutorService workers) {
        workers.shutdown();
        try {
            if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("Timer handlers still running 10 s after shutdown; interrupting them");
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final String prefix;
    private final AtomicInteger next = new AtomicInteger();

    NamedThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, prefix + "-" + next.getAndIncrement());
        thread.setDaemon(true);
        return thread;
    }
}
