package org.rouse.api.internal.selector;

import java.util.Map;
import org.apache.felix.hc.api.HealthCheck;
import org.apache.felix.hc.api.Result;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.api.internal.HealthResults;
import org.rouse.api.internal.LastGood;
import org.rouse.selector.spi.SelectorEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The selector service's Felix health check (tags {@code rouse}, {@code rouse-selector}): CRITICAL without a
 * selector engine (channels wait, no upcall runs), WARN while the upcall pool is saturated (every worker busy at its
 * maximum), when its queue reaches the threshold, or when it is longer than at the previous check. Thresholds: PID
 * {@value #PID} ({@link SelectorHealthConfig}).
 *
 * <pre>
 * g! hc:exec rouse-selector
 * </pre>
 *
 * <p>A delayed component: SCR loads this class (which names the optional {@code org.apache.felix.hc.api}) only when
 * Felix HC's executor gets the service. The queue length seen by the previous check is kept by the front
 * ({@link SelectorFrontCore#swapQueueSeen}), so a check that SCR disposes between executions loses nothing.
 */
@Component(
        service = HealthCheck.class,
        configurationPid = SelectorHealthCheck.PID,
        property = {
            HealthCheck.NAME + "=Rouse selector service",
            HealthCheck.TAGS + "=" + HealthResults.TAG,
            HealthCheck.TAGS + "=rouse-selector"
        })
@Designate(ocd = SelectorHealthConfig.class)
public final class SelectorHealthCheck implements HealthCheck {

    /** The configuration PID of the threshold. */
    public static final String PID = "org.rouse.selector.health";

    private static final Logger LOG = LoggerFactory.getLogger(SelectorHealthCheck.class);

    /** The selector front's core, registered by {@link SelectorFront} while it is active. */
    @Reference
    SelectorFrontCore core;

    /** The last good thresholds. */
    private final LastGood<SelectorHealthConfig, SelectorHealth> health =
            new LastGood<>(PID, SelectorHealth.DEFAULTS, SelectorHealth::from, LOG);

    @Activate
    @Modified
    void configure(SelectorHealthConfig config) {
        apply(config);
    }

    /** Validates and applies {@code config}, or logs why not and keeps the last good one; returns whether applied. */
    boolean apply(SelectorHealthConfig config) {
        return health.apply(config);
    }

    /** The thresholds in force. */
    SelectorHealth health() {
        return health.get();
    }

    @Override
    public Result execute() {
        SelectorEngine engine = core.active();
        Map<String, Long> counters = engine == null ? Map.of() : engine.counters();
        long previous = core.swapQueueSeen(counters.getOrDefault("pool.queued", 0L));
        return HealthResults.of(health.get().evaluate(engine == null ? null : engine.name(), counters, previous));
    }
}
