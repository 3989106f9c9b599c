package org.rouse.api.internal.console;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a sampling task at a fixed period on one daemon thread ({@value #THREAD_NAME}) only while someone asks for its
 * results: {@link #touch()} (a request for the console page or its data) starts the thread if it is not running, and
 * the thread ends by itself once no touch came for the idle period. {@link #close()} ends it for good.
 *
 * <pre>{@code
 * OnDemandSampler sampler = new OnDemandSampler(history::clear, this::sample);
 * sampler.touch();   // on every request for the page or data.json
 * sampler.close();   // on deactivate: no thread is left, and touch() no longer starts one
 * }</pre>
 *
 * <p>Thread-safe.
 */
final class OnDemandSampler {

    /*
     * Implementation notes.
     *
     * Invariants. `executor` is non-null exactly while a sampling thread is running or about to; it is set and
     * cleared under this object's monitor only. A touch writes `lastTouchNanos` before taking the monitor to look at
     * `executor`; the sampling thread decides to stop under the monitor, reading `lastTouchNanos` there. So a touch
     * either is seen by that decision (the thread goes on) or sees `executor` cleared (it starts a new thread): a
     * request never finds the sampler stopped for good.
     *
     * Costs. Idle: no thread. Viewed: the sampling task once a period, and per request a volatile write and one
     * uncontended monitor entry.
     */

    private static final Logger LOG = LoggerFactory.getLogger(OnDemandSampler.class);

    /** The sampling thread's name. */
    static final String THREAD_NAME = "rouse-console-sampler";

    /** The sampling period of the console page: one reading a second. */
    static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** How long the thread goes on after the last request: a minute, the span of the page's history. */
    static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Runnable onStart;
    private final Runnable sample;
    private final long periodNanos;
    private final long idleNanos;

    /** When the last touch came (System.nanoTime()); written by request threads, read by the sampling thread. */
    private volatile long lastTouchNanos;
    /** The running sampler, null when none; guarded by this. */
    private ScheduledExecutorService executor;
    /** Set once by close; guarded by this. */
    private boolean closed;

    /** A sampler at the console's period and idle period; {@code onStart} runs on each start, before any sample. */
    OnDemandSampler(Runnable onStart, Runnable sample) {
        this(onStart, sample, PERIOD_NANOS, IDLE_NANOS);
    }

    OnDemandSampler(Runnable onStart, Runnable sample, long periodNanos, long idleNanos) {
        this.onStart = onStart;
        this.sample = sample;
        this.periodNanos = periodNanos;
        this.idleNanos = idleNanos;
    }

    /** Notes a request; starts the sampling thread if none runs (and this sampler is not closed). */
    void touch() {
        lastTouchNanos = System.nanoTime();
        synchronized (this) {
            if (executor != null || closed) {
                return;
            }
            onStart.run();
            ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, THREAD_NAME);
                thread.setDaemon(true);
                return thread;
            });
            executor = started;
            started.scheduleAtFixedRate(() -> tick(started), 0, periodNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** One period on the sampling thread: samples, or ends the thread when no request came for the idle period. */
    private void tick(ScheduledExecutorService self) {
        synchronized (this) {
            if (executor != self) {
                return; // closed meanwhile
            }
            if (System.nanoTime() - lastTouchNanos >= idleNanos) {
                executor = null;
                self.shutdown(); // this task is the only one: the thread ends as it returns
                return;
            }
        }
        try {
            sample.run();
        } catch (RuntimeException e) { // a periodic task that throws is never run again: keep sampling
            LOG.debug("console sample failed", e);
        }
    }

    /** Whether a sampling thread runs now. */
    synchronized boolean running() {
        return executor != null;
    }

    /** Ends the sampling thread, waiting up to a second for a sample in progress; later touches start nothing. */
    void close() {
        ScheduledExecutorService running;
        synchronized (this) {
            closed = true;
            running = executor;
            executor = null;
        }
        if (running != null) {
            running.shutdownNow();
            try {
                running.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
