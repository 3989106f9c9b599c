package org.rouse.benchmarks.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * A fixed set of named worker threads that run one body per round, started together by the driver and stopped by
 * it; between rounds they wait at a barrier (blocked, not spinning), so they do not disturb other variants.
 *
 * <pre>{@code
 * RoundWorkers workers = new RoundWorkers("rouse-bench-lock", 16, i -> { while (!workers.stopped()) work(i); });
 * workers.start();
 * long elapsedNanos = workers.round(deadline -> LockSupport.parkNanos(deadline - System.nanoTime()), budget);
 * workers.close();
 * }</pre>
 */
public final class RoundWorkers {

    private final String name;
    private final int threads;
    private final IntConsumer body;
    private final CyclicBarrier start;
    private final CyclicBarrier end;
    private final List<Thread> workers = new ArrayList<>();
    /** Ends a round; written by the driver, read by workers. */
    private volatile boolean stop;
    /** Ends the workers; written by close(). */
    private volatile boolean closed;

    public RoundWorkers(String name, int threads, IntConsumer body) {
        this.name = name;
        this.threads = threads;
        this.body = body;
        this.start = new CyclicBarrier(threads + 1);
        this.end = new CyclicBarrier(threads + 1);
    }

    /** Whether the current round is over (workers poll this). */
    public boolean stopped() {
        return stop;
    }

    public void start() {
        for (int i = 0; i < threads; i++) {
            int index = i;
            Thread t = new Thread(() -> loop(index), name + "-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
    }

    private void loop(int index) {
        try {
            for (; ; ) {
                start.await();
                if (closed) {
                    return;
                }
                body.accept(index);
                end.await();
            }
        } catch (Exception e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Runs one round: releases the workers, lets {@code drive} run until the deadline it is given
     * ({@code System.nanoTime()} based), stops the workers and waits for them. Returns the round's length in ns.
     */
    public long round(LongConsumer drive, long budgetNanos) throws Exception {
        stop = false;
        start.await(30, TimeUnit.SECONDS);
        long t0 = System.nanoTime();
        drive.accept(t0 + budgetNanos);
        stop = true;
        end.await(30, TimeUnit.SECONDS);
        return System.nanoTime() - t0;
    }

    /** Stops the workers and waits for them; does nothing when they were never started. */
    public void close() throws Exception {
        if (workers.isEmpty()) {
            return;
        }
        closed = true;
        start.await(30, TimeUnit.SECONDS);
        for (Thread t : workers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
