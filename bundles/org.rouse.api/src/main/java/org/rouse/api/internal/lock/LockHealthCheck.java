package org.rouse.api.internal.lock;

import org.apache.felix.hc.api.HealthCheck;
import org.apache.felix.hc.api.Result;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.api.internal.HealthResults;
import org.rouse.api.internal.LastGood;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock service's Felix health check (tags {@code rouse}, {@code rouse-lock}): WARN without a lock engine (the
 * built-in mutex stands in) and WARN naming each lock, with its strategy, whose longest sampled contended wait over
 * the recent window reaches the threshold. Thresholds: PID {@value #PID} ({@link LockHealthConfig}).
 *
 * <pre>
 * g! hc:exec rouse-lock
 * </pre>
 *
 * <p>Waits are sampled as {@code rouse:locks} samples them (the first contended acquisition of a lock and one in 8
 * after it), so a single long wait may go unseen. A delayed component: SCR loads this class (which names the optional
 * {@code org.apache.felix.hc.api}) only when Felix HC's executor gets the service; the window's marks are kept by the
 * front ({@link LockFrontCore#recentSnapshot}).
 */
@Component(
        service = HealthCheck.class,
        configurationPid = LockHealthCheck.PID,
        property = {
            HealthCheck.NAME + "=Rouse lock service",
            HealthCheck.TAGS + "=" + HealthResults.TAG,
            HealthCheck.TAGS + "=rouse-lock"
        })
@Designate(ocd = LockHealthConfig.class)
public final class LockHealthCheck implements HealthCheck {

    /** The configuration PID of the thresholds. */
    public static final String PID = "org.rouse.lock.health";

    private static final Logger LOG = LoggerFactory.getLogger(LockHealthCheck.class);

    /** The lock front's core, registered by {@link LockFront} while it is active. */
    @Reference
    LockFrontCore core;

    /** The last good thresholds. */
    private final LastGood<LockHealthConfig, LockHealth> health =
            new LastGood<>(PID, LockHealth.DEFAULTS, LockHealth::from, LOG);

    @Activate
    @Modified
    void configure(LockHealthConfig config) {
        apply(config);
    }

    /** Validates and applies {@code config}, or logs why not and keeps the last good one; returns whether applied. */
    boolean apply(LockHealthConfig config) {
        return health.apply(config);
    }

    /** The thresholds in force. */
    LockHealth health() {
        return health.get();
    }

    @Override
    public Result execute() {
        LockHealth h = health.get();
        return HealthResults.of(h.evaluate(core.engineName(), core.recentSnapshot(System.nanoTime(), h.windowNanos())));
    }
}
