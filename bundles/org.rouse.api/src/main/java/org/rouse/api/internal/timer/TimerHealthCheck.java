package org.rouse.api.internal.timer;

import java.util.List;
import org.apache.felix.hc.api.HealthCheck;
import org.apache.felix.hc.api.Result;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.api.internal.HealthFinding;
import org.rouse.api.internal.HealthResults;
import org.rouse.api.internal.LastGood;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timer service's Felix health check (tags {@code rouse}, {@code rouse-timer}): WARN without a timer engine
 * (the standby engine stands in), WARN or CRITICAL when the p99 lateness of the recent window reaches its thresholds,
 * CRITICAL for each handler running longer than the stuck threshold. Thresholds: PID {@value #PID}
 * ({@link TimerHealthConfig}).
 *
 * <pre>
 * g! hc:exec rouse-timer
 * </pre>
 *
 * <p>A delayed component: SCR loads this class (which names the optional {@code org.apache.felix.hc.api}) only when
 * Felix HC's executor gets the service. It holds no state of its own: the window and the running handlers are the
 * front's ({@link TimerFrontCore}), so a check that SCR disposes between executions loses nothing.
 *
 * <p>The recent lateness is derived at each execution from the per-bundle lateness histograms the statistics keep:
 * the difference between now and a mark an earlier execution took, at most the window ago ({@link LatenessWindow}).
 * An execution at least every sixth of the window sees 5/6 of it to all of it; rarer executions see since the
 * previous one, and the finding names the span it covers. A handler start pays nothing for the check.
 */
@Component(
        service = HealthCheck.class,
        configurationPid = TimerHealthCheck.PID,
        property = {
            HealthCheck.NAME + "=Rouse timer service",
            HealthCheck.TAGS + "=" + HealthResults.TAG,
            HealthCheck.TAGS + "=rouse-timer"
        })
@Designate(ocd = TimerHealthConfig.class)
public final class TimerHealthCheck implements HealthCheck {

    /** The configuration PID of the thresholds. */
    public static final String PID = "org.rouse.timer.health";

    private static final Logger LOG = LoggerFactory.getLogger(TimerHealthCheck.class);

    /** The timer front's core, registered by {@link TimerFront} while it is active. */
    @Reference
    TimerFrontCore core;

    /** The last good thresholds. */
    private final LastGood<TimerHealthConfig, TimerHealth> health =
            new LastGood<>(PID, TimerHealth.DEFAULTS, TimerHealth::from, LOG);

    @Activate
    @Modified
    void configure(TimerHealthConfig config) {
        apply(config);
    }

    /** Validates and applies {@code config}, or logs why not and keeps the last good one; returns whether applied. */
    boolean apply(TimerHealthConfig config) {
        if (!health.apply(config)) {
            return false;
        }
        core.recentLateness().resize(health.get().windowNanos());
        return true;
    }

    /** The thresholds in force. */
    TimerHealth health() {
        return health.get();
    }

    @Override
    public Result execute() {
        TimerHealth h = health.get();
        LatenessWindow.Recent recent = core.recentLateness(System.nanoTime());
        List<HealthFinding> findings =
                h.evaluate(core.dispatch().engineName(), recent.lateness(), recent.spanNanos(), core.owners());
        return HealthResults.of(findings);
    }
}
