package org.rouse.api.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.felix.hc.api.Result;
import org.junit.jupiter.api.Test;
import org.rouse.api.internal.HealthFinding;
import org.rouse.api.internal.HealthFinding.Level;
import org.rouse.config.ConfigCheck;
import org.rouse.stats.Percentiles;

/** The timer health check's thresholds: validation, the last good configuration, and the levels they give. */
class TimerHealthTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theMetatypeDefaultsAreTheDefaults() {
        assertEquals(TimerHealth.DEFAULTS, TimerHealth.from(config(20, 200, 60, 10_000), new ConfigCheck("t")));
    }

    @Test
    void everyBadValueIsNamedWithItsRange() {
        ConfigCheck check = new ConfigCheck(TimerHealthCheck.PID);
        assertNull(TimerHealth.from(config(0, 5_000_000, 0, 0), check));
        String rejection = check.rejection();
        assertTrue(
                rejection.contains("lateness.p99.warn.ms = 0.0 is outside the allowed range [0.001, 3600000.0]"),
                rejection);
        assertTrue(rejection.contains("lateness.p99.critical.ms = 5000000.0 is outside"), rejection);
        assertTrue(rejection.contains("lateness.window.seconds = 0 is outside the allowed range [1, 3600]"), rejection);
        assertTrue(rejection.contains("stuck.handler.ms = 0 is outside the allowed range [1, 86400000]"), rejection);
        assertTrue(rejection.startsWith("Rejected configuration of org.rouse.timer.health"), rejection);
    }

    @Test
    void criticalBelowWarnIsRejected() {
        ConfigCheck check = new ConfigCheck(TimerHealthCheck.PID);
        assertNull(TimerHealth.from(config(50, 10, 60, 1000), check));
        assertTrue(
                check.rejection()
                        .contains("lateness.p99.critical.ms = 10.0 is not allowed: at least"
                                + " lateness.p99.warn.ms = 50"),
                check.rejection());
    }

    @Test
    void aRejectedConfigurationKeepsTheLastGoodOneAndItsWindow() {
        TimerFrontCore core = new TimerFrontCore();
        TimerHealthCheck check = new TimerHealthCheck();
        check.core = core;
        assertTrue(check.apply(config(5, 50, 6, 1000)));
        TimerHealth good = check.health();
        assertEquals(5 * MS, good.lateWarnNanos());
        assertEquals(TimeUnit.SECONDS.toNanos(6), core.recentLateness().windowNanos());
        assertFalse(check.apply(config(5, 1, 6, 1000)));
        assertSame(good, check.health());
        assertEquals(TimeUnit.SECONDS.toNanos(6), core.recentLateness().windowNanos());
    }

    @Test
    void p99LatenessGivesOkWarnAndCritical() {
        TimerHealth health = TimerHealth.from(config(20, 200, 60, 10_000), new ConfigCheck("t"));
        assertEquals(Level.OK, HealthFinding.worst(health.evaluate("wheel", late(19.9), List.of())));
        List<HealthFinding> warn = health.evaluate("wheel", late(20), List.of());
        assertEquals(Level.WARN, HealthFinding.worst(warn));
        assertTrue(warn.get(1).message().contains("p99 20 ms over the last 60 s"), warn.toString());
        assertTrue(warn.get(1).message().contains("rouse:late"), warn.toString());
        List<HealthFinding> critical = health.evaluate("wheel", late(250), List.of());
        assertEquals(Level.CRITICAL, HealthFinding.worst(critical));
        assertTrue(critical.get(1).message().contains("CRITICAL threshold 200 ms"), critical.toString());
        assertEquals(Level.OK, HealthFinding.worst(health.evaluate("wheel", Percentiles.EMPTY, List.of())));
    }

    @Test
    void aHandlerRunningPastTheStuckThresholdIsCriticalAndNamed() {
        TimerHealth health = TimerHealth.from(config(20, 200, 60, 1000), new ConfigCheck("t"));
        Owner.OwnerSnapshot stuck =
                new Owner.OwnerSnapshot("org.example.host", "script-7", 3, 0, 0, "timer 12", 1500 * MS);
        Owner.OwnerSnapshot busy =
                new Owner.OwnerSnapshot("org.example.host", "script-8", 3, 0, 0, "timer 13", 999 * MS);
        Owner.OwnerSnapshot idle = new Owner.OwnerSnapshot("org.example.host", "script-9", 3, 0, 0, null, 0);
        List<HealthFinding> findings = health.evaluate("wheel", Percentiles.EMPTY, List.of(busy, stuck, idle));
        assertEquals(Level.CRITICAL, HealthFinding.worst(findings));
        List<HealthFinding> critical =
                findings.stream().filter(f -> f.level() == Level.CRITICAL).toList();
        assertEquals(1, critical.size(), findings.toString());
        assertEquals(
                "timer handler stuck: bundle org.example.host, owner 'script-7', timer timer 12 running for 1500 ms"
                        + " (threshold 1000 ms); see rouse:running",
                critical.get(0).message());
    }

    @Test
    void theStandbyEngineIsAWarning() {
        List<HealthFinding> findings = TimerHealth.DEFAULTS.evaluate("none", Percentiles.EMPTY, List.of());
        assertEquals(Level.WARN, HealthFinding.worst(findings));
        assertTrue(findings.get(0).message().startsWith("no timer engine"), findings.toString());
    }

    @Test
    void theFelixResultCarriesTheWorstLevel() {
        Result result = org.rouse.api.internal.HealthResults.of(
                List.of(HealthFinding.ok("fine"), HealthFinding.warn("meh"), HealthFinding.ok("fine too")));
        assertEquals(Result.Status.WARN, result.getStatus());
        assertEquals(
                Result.Status.OK,
                org.rouse.api.internal.HealthResults.of(List.of(HealthFinding.ok("a")))
                        .getStatus());
        assertEquals(
                Result.Status.CRITICAL,
                org.rouse.api.internal.HealthResults.of(List.of(HealthFinding.warn("a"), HealthFinding.critical("b")))
                        .getStatus());
    }

    private static Percentiles late(double p99Ms) {
        long p99 = Math.round(p99Ms * MS);
        return Percentiles.of(100, p99 / 2, p99, p99, p99);
    }

    static TimerHealthConfig config(double warnMs, double criticalMs, long windowS, long stuckMs) {
        return new TimerHealthConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return TimerHealthConfig.class;
            }

            @Override
            public double lateness_p99_warn_ms() {
                return warnMs;
            }

            @Override
            public double lateness_p99_critical_ms() {
                return criticalMs;
            }

            @Override
            public long lateness_window_seconds() {
                return windowS;
            }

            @Override
            public long stuck_handler_ms() {
                return stuckMs;
            }
        };
    }
}
