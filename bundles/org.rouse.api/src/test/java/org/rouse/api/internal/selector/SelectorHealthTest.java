package org.rouse.api.internal.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rouse.api.internal.HealthFinding;
import org.rouse.api.internal.HealthFinding.Level;
import org.rouse.config.ConfigCheck;

/** The selector health check's threshold: saturation, the queue threshold, a growing queue, no engine. */
class SelectorHealthTest {

    private final SelectorHealth health = new SelectorHealth(100);

    @Test
    void anIdleWorkerAndNoQueueIsOk() {
        List<HealthFinding> f = health.evaluate("nio", pool(3, 1, 64, 0), 0);
        assertEquals(Level.OK, HealthFinding.worst(f));
        assertEquals(
                "selector engine nio: pool 3 threads (1 idle, max 64), 0 upcalls queued",
                f.get(0).message());
    }

    @Test
    void everyWorkerBusyAtTheMaximumIsSaturated() {
        List<HealthFinding> f = health.evaluate("nio", pool(4, 0, 4, 0), 0);
        assertEquals(Level.WARN, HealthFinding.worst(f));
        assertTrue(f.get(0).message().startsWith("selector pool saturated: all 4 workers busy"), f.toString());
        assertTrue(f.get(0).message().contains("rouse:selector"), f.toString());
        assertEquals(Level.OK, HealthFinding.worst(health.evaluate("nio", pool(3, 0, 4, 0), 0)), "room to grow");
    }

    @Test
    void aLongQueueOrAGrowingOneWarns() {
        List<HealthFinding> f = health.evaluate("nio", pool(4, 1, 8, 100), 0);
        assertEquals(Level.WARN, HealthFinding.worst(f));
        assertTrue(f.toString().contains("100 upcalls wait for a worker (threshold 100)"), f.toString());
        List<HealthFinding> growing = health.evaluate("nio", pool(4, 1, 8, 7), 3);
        assertEquals(Level.WARN, HealthFinding.worst(growing));
        assertTrue(growing.toString().contains("3 upcalls waited at the previous check, 7 now"), growing.toString());
        assertEquals(Level.OK, HealthFinding.worst(health.evaluate("nio", pool(4, 1, 8, 7), 9)), "shrinking");
    }

    @Test
    void noEngineIsCritical() {
        List<HealthFinding> f = health.evaluate(null, Map.of(), 0);
        assertEquals(Level.CRITICAL, HealthFinding.worst(f));
        assertTrue(f.get(0).message().startsWith("no selector engine"), f.toString());
    }

    @Test
    void aBadThresholdIsRejectedAndTheLastGoodOneKept() {
        ConfigCheck check = new ConfigCheck(SelectorHealthCheck.PID);
        assertNull(SelectorHealth.from(config(0), check));
        assertTrue(check.rejection().contains("queue.warn = 0 is outside the allowed range [1, 1000000]"));
        SelectorHealthCheck component = new SelectorHealthCheck();
        assertTrue(component.apply(config(5)));
        SelectorHealth good = component.health();
        assertEquals(5, good.queueWarn());
        assertFalse(component.apply(config(2_000_000)));
        assertSame(good, component.health());
        assertEquals(SelectorHealth.DEFAULTS, SelectorHealth.from(config(100), new ConfigCheck("s")));
    }

    private static Map<String, Long> pool(long threads, long idle, long max, long queued) {
        return Map.of(
                "pool.threads", threads, "pool.threads.idle", idle, "pool.threads.max", max, "pool.queued", queued);
    }

    private static SelectorHealthConfig config(int queueWarn) {
        return new SelectorHealthConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return SelectorHealthConfig.class;
            }

            @Override
            public int queue_warn() {
                return queueWarn;
            }
        };
    }
}
