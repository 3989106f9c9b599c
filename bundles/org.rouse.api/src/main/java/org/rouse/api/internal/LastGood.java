package org.rouse.api.internal;

import java.util.function.BiFunction;
import org.rouse.config.ConfigCheck;
import org.slf4j.Logger;

/**
 * The value a component made from its last good configuration: a configuration that fails validation is logged at
 * ERROR (one line naming each property, value and allowed range) and leaves the value in force.
 *
 * <pre>
 * private final LastGood&lt;LockHealthConfig, LockHealth&gt; health =
 *         new LastGood&lt;&gt;(PID, LockHealth.DEFAULTS, LockHealth::from, LOG);
 *
 * &#64;Activate &#64;Modified
 * void configure(LockHealthConfig config) { health.apply(config); }
 * </pre>
 *
 * @param <C> the component's configuration type
 * @param <T> what a valid configuration makes (immutable)
 */
public final class LastGood<C, T> {

    private final String pid;
    private final BiFunction<C, ConfigCheck, T> validate;
    private final Logger log;
    /** Written by activate/modified (DS serializes them), read by any thread. */
    private volatile T value;

    /**
     * @param validate makes the value of a configuration, or returns null after recording each problem in the check
     */
    public LastGood(String pid, T defaults, BiFunction<C, ConfigCheck, T> validate, Logger log) {
        this.pid = pid;
        this.value = defaults;
        this.validate = validate;
        this.log = log;
    }

    /** Validates and applies {@code config}, or logs why not and keeps the value in force; returns whether applied. */
    public boolean apply(C config) {
        ConfigCheck check = new ConfigCheck(pid);
        T next = validate.apply(config, check);
        if (next == null) {
            log.error(check.rejection());
            return false;
        }
        value = next;
        return true;
    }

    /** The value in force. */
    public T get() {
        return value;
    }
}
