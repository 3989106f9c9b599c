package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.annotation.Annotation;
import org.junit.jupiter.api.Test;

class EngineSettingsTest {

    @SuppressWarnings("all") // a record standing in for the DS-generated configuration object
    private record Config(
            int pool_core_threads,
            int pool_max_threads,
            long pool_idle_timeout_seconds,
            int pool_queue_capacity,
            boolean pool_most_recently_idle_first,
            int loops,
            long select_timeout_ms,
            long watch_period_us,
            boolean wakeup_after_upcall,
            long loop_wait_timeout_ms,
            long pool_grow_after_micros,
            boolean loop_handover,
            boolean watch_adaptive,
            long loop_takeover_after_micros)
            implements SelectorEngineConfig {

        static Config valid() {
            return new Config(0, 8, 5, 100, false, 3, 250, 200, false, 750, 300, false, false, 500);
        }

        Config withLoops(int value) {
            return new Config(
                    pool_core_threads,
                    pool_max_threads,
                    pool_idle_timeout_seconds,
                    pool_queue_capacity,
                    pool_most_recently_idle_first,
                    value,
                    select_timeout_ms,
                    watch_period_us,
                    wakeup_after_upcall,
                    loop_wait_timeout_ms,
                    pool_grow_after_micros,
                    loop_handover,
                    watch_adaptive,
                    loop_takeover_after_micros);
        }

        Config withWatch(long value) {
            return new Config(
                    pool_core_threads,
                    pool_max_threads,
                    pool_idle_timeout_seconds,
                    pool_queue_capacity,
                    pool_most_recently_idle_first,
                    loops,
                    select_timeout_ms,
                    value,
                    wakeup_after_upcall,
                    loop_wait_timeout_ms,
                    pool_grow_after_micros,
                    loop_handover,
                    watch_adaptive,
                    loop_takeover_after_micros);
        }

        Config withLoopWait(long value) {
            return new Config(
                    pool_core_threads,
                    pool_max_threads,
                    pool_idle_timeout_seconds,
                    pool_queue_capacity,
                    pool_most_recently_idle_first,
                    loops,
                    select_timeout_ms,
                    watch_period_us,
                    wakeup_after_upcall,
                    value,
                    pool_grow_after_micros,
                    loop_handover,
                    watch_adaptive,
                    loop_takeover_after_micros);
        }

        Config withGrowAfter(long value) {
            return new Config(
                    pool_core_threads,
                    pool_max_threads,
                    pool_idle_timeout_seconds,
                    pool_queue_capacity,
                    pool_most_recently_idle_first,
                    loops,
                    select_timeout_ms,
                    watch_period_us,
                    wakeup_after_upcall,
                    loop_wait_timeout_ms,
                    value,
                    loop_handover,
                    watch_adaptive,
                    loop_takeover_after_micros);
        }

        Config withPool(int core, int max, long idle) {
            return new Config(
                    core,
                    max,
                    idle,
                    pool_queue_capacity,
                    pool_most_recently_idle_first,
                    loops,
                    select_timeout_ms,
                    watch_period_us,
                    wakeup_after_upcall,
                    loop_wait_timeout_ms,
                    pool_grow_after_micros,
                    loop_handover,
                    watch_adaptive,
                    loop_takeover_after_micros);
        }

        Config withTakeoverAfter(long value) {
            return new Config(
                    pool_core_threads,
                    pool_max_threads,
                    pool_idle_timeout_seconds,
                    pool_queue_capacity,
                    pool_most_recently_idle_first,
                    loops,
                    select_timeout_ms,
                    watch_period_us,
                    wakeup_after_upcall,
                    loop_wait_timeout_ms,
                    pool_grow_after_micros,
                    loop_handover,
                    watch_adaptive,
                    value);
        }

        @Override
        public Class<? extends Annotation> annotationType() {
            return SelectorEngineConfig.class;
        }
    }

    @Test
    void aValidConfigurationIsTakenAsIs() {
        EngineSettings settings = EngineSettings.from(Config.valid());

        assertEquals(
                new EngineSettings(0, 8, 5, 100, false, 3, 250, 200, false, 750, 300, false, false, 500), settings);
    }

    @Test
    void anOutOfRangeValueRejectsTheWholeConfiguration() {
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withPool(2, 64, 0)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withPool(2, 2000, 60)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withLoops(0)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withLoops(65)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withWatch(-1)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withTakeoverAfter(-1)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withTakeoverAfter(1_000_001)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withWatch(1_000_001)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withLoopWait(0)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withLoopWait(600_001)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withGrowAfter(-1)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withGrowAfter(1_000_001)));
        assertEquals(0, EngineSettings.from(Config.valid().withGrowAfter(0)).growAfterMicros(), "0 = grow at once");
    }

    @Test
    void fewerMaximumThanCoreThreadsIsRejected() {
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(Config.valid().withPool(8, 4, 60)));
    }
}
