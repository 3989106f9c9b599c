package org.rouse.api.internal.selector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rouse.api.internal.HealthFinding;
import org.rouse.config.ConfigCheck;

/**
 * The selector health check's threshold and its logic, without OSGi or Felix HC: judges the active engine's pool
 * counters ({@code pool.threads}, {@code pool.threads.idle}, {@code pool.threads.max}, {@code pool.queued}).
 *
 * <pre>{@code
 * SelectorHealth health = SelectorHealth.from(config, new ConfigCheck(SelectorHealthCheck.PID)); // null if rejected
 * List<HealthFinding> findings = health.evaluate(engine.name(), engine.counters(), queuedAtPreviousCheck);
 * }</pre>
 *
 * @param queueWarn WARN when this many upcalls wait for a worker
 */
record SelectorHealth(long queueWarn) {

    static final SelectorHealth DEFAULTS = new SelectorHealth(100);

    private static final String SEE = "; see rouse:selector and rouse:connections";

    /** Validates {@code config}; returns {@code null} after recording the problem in {@code check}. */
    static SelectorHealth from(SelectorHealthConfig config, ConfigCheck check) {
        long queueWarn = check.inRange("queue.warn", config.queue_warn(), 1, 1_000_000);
        return check.passed() ? new SelectorHealth(queueWarn) : null;
    }

    /**
     * Judges the selector front: {@code engine} is the active engine's name or {@code null} when there is none (then
     * channels wait in the front and no upcall runs: CRITICAL), {@code counters} its counters, and
     * {@code previousQueued} the queue length at the previous check (a longer queue now is a growing queue).
     */
    List<HealthFinding> evaluate(String engine, Map<String, Long> counters, long previousQueued) {
        List<HealthFinding> findings = new ArrayList<>();
        if (engine == null) {
            findings.add(HealthFinding.critical("no selector engine: registered channels wait in the front and no"
                    + " upcall runs; start or update the org.rouse.selector bundle" + SEE));
            return findings;
        }
        long threads = counters.getOrDefault("pool.threads", 0L);
        long idle = counters.getOrDefault("pool.threads.idle", -1L);
        long max = counters.getOrDefault("pool.threads.max", 0L);
        long queued = counters.getOrDefault("pool.queued", 0L);
        String pool = "selector engine " + engine + ": pool " + threads + " threads (" + Math.max(0, idle)
                + " idle, max " + max + "), " + queued + " upcalls queued";
        boolean bad = false;
        if (max > 0 && idle == 0 && threads >= max) {
            findings.add(HealthFinding.warn("selector pool saturated: all " + threads + " workers busy at"
                    + " pool.max.threads, " + queued + " upcalls queued (slow upcalls: JFR org.rouse.SlowUpcall)"
                    + SEE));
            bad = true;
        }
        if (queued >= queueWarn) {
            findings.add(HealthFinding.warn("selector pool queue: " + queued + " upcalls wait for a worker"
                    + " (threshold " + queueWarn + ")" + SEE));
            bad = true;
        } else if (queued > 0 && queued > previousQueued) {
            findings.add(HealthFinding.warn("selector pool queue growing: " + previousQueued + " upcalls waited at"
                    + " the previous check, " + queued + " now" + SEE));
            bad = true;
        }
        if (!bad) {
            findings.add(HealthFinding.ok(pool));
        }
        return findings;
    }
}
