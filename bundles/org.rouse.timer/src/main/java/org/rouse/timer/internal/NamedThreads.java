package org.rouse.timer.internal;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Daemon threads named {@code prefix-N}, and the engines' way of stopping a pool of them. */
final class NamedThreads implements ThreadFactory {

    private static final Logger LOG = LoggerFactory.getLogger(NamedThreads.class);

    /** How long an engine's shutdown lets running handlers go on before interrupting them. */
    static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);

    /**
     * Stops {@code workers}: lets the tasks already running finish for up to {@code grace}, then interrupts them and
     * discards what is still queued (the front never relies on a retired engine's queue: it re-issues queued owners
     * to the active engine at every swap), and keeps the caller's interrupt status. Returns without waiting for a
     * handler that ignores the interrupt; such a thread ends when its handler returns. Called from one of the pool's
     * own threads ({@code factory} made it: a handler that stops its engine) it only shuts the pool down and returns,
     * as the wheel engine does: waiting would wait for the caller, and the interrupt would land in its shutdown.
     */
    static void stopWorkers(ExecutorService workers, NamedThreads factory, Duration grace) {
        workers.shutdown();
        if (factory.made(Thread.currentThread())) {
            return; // the workers end as their tasks run out
        }
        try {
            if (!workers.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
                LOG.warn("Timer handlers still running {} ms after shutdown; interrupting them", grace.toMillis());
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
        Thread thread = new Named(task, prefix + "-" + next.getAndIncrement());
        thread.setDaemon(true);
        return thread;
    }

    /** Whether {@code thread} was made by this factory. */
    boolean made(Thread thread) {
        return thread instanceof Named named && named.factory() == this;
    }

    /** A thread that knows its factory, so a pool can tell its own threads from callers. */
    private final class Named extends Thread {
        Named(Runnable task, String name) {
            super(task, name);
        }

        NamedThreads factory() {
            return NamedThreads.this;
        }
    }
}
