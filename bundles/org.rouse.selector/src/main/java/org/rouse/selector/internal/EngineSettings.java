package org.rouse.selector.internal;

import org.rouse.config.ConfigCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validated settings of one {@link NioSelectorEngine}.
 *
 * @param coreThreads worker threads kept when idle
 * @param maxThreads the most worker threads
 * @param idleTimeoutSeconds how long a worker above the core size may idle
 * @param queueCapacity upcalls that may wait once every worker is busy
 * @param selectTimeoutMs the longest select; 0 = no timeout
 * @param wakeupAfterUpcall whether an update from another thread wakes the loop
 */
record EngineSettings(
        int coreThreads,
        int maxThreads,
        long idleTimeoutSeconds,
        int queueCapacity,
        long selectTimeoutMs,
        boolean wakeupAfterUpcall) {

    static final int DEFAULT_CORE_THREADS = 2;
    static final int DEFAULT_MAX_THREADS = 64;
    static final long DEFAULT_IDLE_TIMEOUT_SECONDS = 60;
    static final int DEFAULT_QUEUE_CAPACITY = 10_000;
    static final long DEFAULT_SELECT_TIMEOUT_MS = 0;

    static final EngineSettings DEFAULTS = new EngineSettings(
            DEFAULT_CORE_THREADS,
            DEFAULT_MAX_THREADS,
            DEFAULT_IDLE_TIMEOUT_SECONDS,
            DEFAULT_QUEUE_CAPACITY,
            DEFAULT_SELECT_TIMEOUT_MS,
            true);

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
                check.inRange("select.timeout.ms", config.select_timeout_ms(), 0, 600_000),
                config.wakeup_after_upcall());
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
}
