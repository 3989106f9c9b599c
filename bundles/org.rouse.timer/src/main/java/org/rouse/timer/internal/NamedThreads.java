package org.rouse.timer.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named {@code prefix-N}. */
final class NamedThreads implements ThreadFactory {

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
