package org.rouse.selector.internal;

import org.rouse.config.ConfigCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings of one {@link NioSelectorEngine}: validated when they come from configuration ({@code from}); tests and
 * benchmarks derive unvalidated variants from {@link #DEFAULTS} with the {@code with...} methods and start an engine
 * with {@link NioSelectorEngine#started(EngineSettings)}. Public only for that; the package is not exported.
 *
 * <pre>{@code
 * EngineSettings twoLoops = EngineSettings.DEFAULTS.withLoops(2).withWatchPeriodMicros(100);
 * NioSelectorEngine engine = NioSelectorEngine.started(twoLoops);
 * ...
 * NioSelectorEngine.stop(engine);
 * }</pre>
 *
 * @param coreThreads worker threads kept when idle
 * @param maxThreads the most worker threads
 * @param idleTimeoutSeconds how long a worker above the core size may idle
 * @param queueCapacity upcalls that may wait once every worker is busy
 * @param mostRecentlyIdleFirst whether an upcall goes to the worker that became idle last (else the longest idle)
 * @param loops select loops; channels are spread across them
 * @param selectTimeoutMs the longest select; 0 = no timeout
 * @param watchPeriodMicros how long a worker keeps watching its channel after an upcall; 0 = not at all
 * @param wakeupAfterUpcall whether an update from another thread wakes the loop
 * @param loopWaitTimeoutMs the longest a drain, a cancel or a shutdown waits for a select loop (one stuck in a
 *     consumer callback cannot answer)
 * @param growAfterMicros how long an upcall may wait for a busy worker before the pool starts a thread for it (while
 *     it has fewer than {@code maxThreads}, and at least one worker per recently active channel: below that a
 *     thread starts at once); 0 = start one at once
 * @param loopHandover whether each loop has a second thread: the loop thread that finds a pool upcall ready hands the
 *     selecting to it, if it is free, and runs that upcall itself (execute-produce-consume); false = every pool upcall
 *     goes to a worker
 * @param watchAdaptive whether a channel is watched only while its calls have been coming within the watch period (a
 *     per-channel saturating counter); false = after every upcall
 * @param loopTakeoverAfterMicros with {@code loopHandover}: a loop thread runs a ready pool upcall itself while its
 *     other thread stands by, and the other thread takes the selecting over once one upcall has run this long; 0 =
 *     hand the selecting over before every such upcall
 */
public record EngineSettings(
        int coreThreads,
        int maxThreads,
        long idleTimeoutSeconds,
        int queueCapacity,
        boolean mostRecentlyIdleFirst,
        int loops,
        long selectTimeoutMs,
        long watchPeriodMicros,
        boolean wakeupAfterUpcall,
        long loopWaitTimeoutMs,
        long growAfterMicros,
        boolean loopHandover,
        boolean watchAdaptive,
        long loopTakeoverAfterMicros) {

    static final int DEFAULT_CORE_THREADS = 2;
    static final int DEFAULT_MAX_THREADS = 64;
    static final long DEFAULT_IDLE_TIMEOUT_SECONDS = 60;
    static final int DEFAULT_QUEUE_CAPACITY = 10_000;
    static final boolean DEFAULT_MOST_RECENTLY_IDLE_FIRST = true;
    static final int DEFAULT_LOOPS = 1;
    static final int MAX_LOOPS = 64;
    static final long DEFAULT_SELECT_TIMEOUT_MS = 0;
    static final long DEFAULT_WATCH_PERIOD_MICROS = 1_000;
    static final long MAX_WATCH_PERIOD_MICROS = 1_000_000;
    static final long DEFAULT_LOOP_WAIT_TIMEOUT_MS = 5_000;
    static final long MAX_LOOP_WAIT_TIMEOUT_MS = 600_000;
    static final long DEFAULT_GROW_AFTER_MICROS = 2_000;
    static final long MAX_GROW_AFTER_MICROS = 1_000_000;
    static final boolean DEFAULT_LOOP_HANDOVER = true;
    static final boolean DEFAULT_WATCH_ADAPTIVE = true;
    static final long DEFAULT_LOOP_TAKEOVER_AFTER_MICROS = 1_000;
    static final long MAX_LOOP_TAKEOVER_AFTER_MICROS = 1_000_000;

    /** The defaults of {@link SelectorEngineConfig}. */
    public static final EngineSettings DEFAULTS = new EngineSettings(
            DEFAULT_CORE_THREADS,
            DEFAULT_MAX_THREADS,
            DEFAULT_IDLE_TIMEOUT_SECONDS,
            DEFAULT_QUEUE_CAPACITY,
            DEFAULT_MOST_RECENTLY_IDLE_FIRST,
            DEFAULT_LOOPS,
            DEFAULT_SELECT_TIMEOUT_MS,
            DEFAULT_WATCH_PERIOD_MICROS,
            true,
            DEFAULT_LOOP_WAIT_TIMEOUT_MS,
            DEFAULT_GROW_AFTER_MICROS,
            DEFAULT_LOOP_HANDOVER,
            DEFAULT_WATCH_ADAPTIVE,
            DEFAULT_LOOP_TAKEOVER_AFTER_MICROS);

    private static final Logger LOG = LoggerFactory.getLogger(EngineSettings.class);

    /**
     * Validates {@code config}. The engine has no modified method (a change re-creates it), so there is no last
     * good configuration to keep: an invalid one is logged at ERROR and the defaults are used.
     */
    static EngineSettings from(SelectorEngineConfig config) {
        ConfigCheck check = new ConfigCheck(NioSelectorEngine.PID);
        EngineSettings settings = new EngineSettings(
                (int) check.inRange("pool.core.threads", config.pool_core_threads(), 0, 1024),
                (int) check.inRange("pool.max.threads", config.pool_max_threads(), 1, 1024),
                check.inRange("pool.idle.timeout.seconds", config.pool_idle_timeout_seconds(), 1, 86_400),
                (int) check.inRange("pool.queue.capacity", config.pool_queue_capacity(), 1, 1_000_000),
                config.pool_most_recently_idle_first(),
                (int) check.inRange("loops", config.loops(), 1, MAX_LOOPS),
                check.inRange("select.timeout.ms", config.select_timeout_ms(), 0, 600_000),
                check.inRange("watch.period.us", config.watch_period_us(), 0, MAX_WATCH_PERIOD_MICROS),
                config.wakeup_after_upcall(),
                check.inRange("loop.wait.timeout.ms", config.loop_wait_timeout_ms(), 1, MAX_LOOP_WAIT_TIMEOUT_MS),
                check.inRange("pool.grow.after.micros", config.pool_grow_after_micros(), 0, MAX_GROW_AFTER_MICROS),
                config.loop_handover(),
                config.watch_adaptive(),
                check.inRange(
                        "loop.takeover.after.micros",
                        config.loop_takeover_after_micros(),
                        0,
                        MAX_LOOP_TAKEOVER_AFTER_MICROS));
        if (settings.maxThreads < settings.coreThreads) {
            check.problem(
                    "pool.max.threads", settings.maxThreads, "at least pool.core.threads = " + settings.coreThreads);
        }
        if (!check.passed()) {
            LOG.error(check.rejection() + " (first activation: using the defaults)");
            return DEFAULTS;
        }
        return settings;
    }

    /** These settings with another pool size and idle timeout (not validated: tests and benchmarks only). */
    public EngineSettings withPool(int core, int max, long idleSeconds) {
        Copy copy = new Copy(this);
        copy.coreThreads = core;
        copy.maxThreads = max;
        copy.idleTimeoutSeconds = idleSeconds;
        return copy.settings();
    }

    /** These settings with another queue capacity. */
    public EngineSettings withQueueCapacity(int capacity) {
        Copy copy = new Copy(this);
        copy.queueCapacity = capacity;
        return copy.settings();
    }

    /** These settings with the other hand-off order. */
    public EngineSettings withMostRecentlyIdleFirst(boolean mru) {
        Copy copy = new Copy(this);
        copy.mostRecentlyIdleFirst = mru;
        return copy.settings();
    }

    /** These settings with another number of loops. */
    public EngineSettings withLoops(int count) {
        Copy copy = new Copy(this);
        copy.loops = count;
        return copy.settings();
    }

    /** These settings with another select timeout and post-upcall wakeup. */
    public EngineSettings withSelect(long timeoutMs, boolean wakeup) {
        Copy copy = new Copy(this);
        copy.selectTimeoutMs = timeoutMs;
        copy.wakeupAfterUpcall = wakeup;
        return copy.settings();
    }

    /** These settings with another post-upcall watch period. */
    public EngineSettings withWatchPeriodMicros(long micros) {
        Copy copy = new Copy(this);
        copy.watchPeriodMicros = micros;
        return copy.settings();
    }

    /** These settings with another bound on waiting for a loop. */
    EngineSettings withLoopWaitTimeoutMs(long millis) {
        Copy copy = new Copy(this);
        copy.loopWaitTimeoutMs = millis;
        return copy.settings();
    }

    /** These settings with another grace before the pool grows for a waiting upcall; 0 = at once. */
    public EngineSettings withGrowAfterMicros(long micros) {
        Copy copy = new Copy(this);
        copy.growAfterMicros = micros;
        return copy.settings();
    }

    /** These settings with the loops' hand-over of the selecting role on or off. */
    public EngineSettings withLoopHandover(boolean handover) {
        Copy copy = new Copy(this);
        copy.loopHandover = handover;
        return copy.settings();
    }

    /** These settings with the watch after every upcall (false) or only for channels called again soon (true). */
    public EngineSettings withWatchAdaptive(boolean adaptive) {
        Copy copy = new Copy(this);
        copy.watchAdaptive = adaptive;
        return copy.settings();
    }

    /** These settings with another take-over bound of the loops ({@code 0}: hand the loop over before each upcall). */
    public EngineSettings withLoopTakeoverAfterMicros(long micros) {
        Copy copy = new Copy(this);
        copy.loopTakeoverAfterMicros = micros;
        return copy.settings();
    }

    /** A mutable copy, so each {@code with...} method names only what it changes. */
    private static final class Copy {
        int coreThreads;
        int maxThreads;
        long idleTimeoutSeconds;
        int queueCapacity;
        boolean mostRecentlyIdleFirst;
        int loops;
        long selectTimeoutMs;
        long watchPeriodMicros;
        boolean wakeupAfterUpcall;
        long loopWaitTimeoutMs;
        long growAfterMicros;
        boolean loopHandover;
        boolean watchAdaptive;
        long loopTakeoverAfterMicros;

        Copy(EngineSettings from) {
            coreThreads = from.coreThreads;
            maxThreads = from.maxThreads;
            idleTimeoutSeconds = from.idleTimeoutSeconds;
            queueCapacity = from.queueCapacity;
            mostRecentlyIdleFirst = from.mostRecentlyIdleFirst;
            loops = from.loops;
            selectTimeoutMs = from.selectTimeoutMs;
            watchPeriodMicros = from.watchPeriodMicros;
            wakeupAfterUpcall = from.wakeupAfterUpcall;
            loopWaitTimeoutMs = from.loopWaitTimeoutMs;
            growAfterMicros = from.growAfterMicros;
            loopHandover = from.loopHandover;
            watchAdaptive = from.watchAdaptive;
            loopTakeoverAfterMicros = from.loopTakeoverAfterMicros;
        }

        EngineSettings settings() {
            return new EngineSettings(
                    coreThreads,
                    maxThreads,
                    idleTimeoutSeconds,
                    queueCapacity,
                    mostRecentlyIdleFirst,
                    loops,
                    selectTimeoutMs,
                    watchPeriodMicros,
                    wakeupAfterUpcall,
                    loopWaitTimeoutMs,
                    growAfterMicros,
                    loopHandover,
                    watchAdaptive,
                    loopTakeoverAfterMicros);
        }
    }
}
