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
            long select_timeout_ms,
            boolean wakeup_after_upcall)
            implements SelectorEngineConfig {

        @Override
        public Class<? extends Annotation> annotationType() {
            return SelectorEngineConfig.class;
        }
    }

    @Test
    void aValidConfigurationIsTakenAsIs() {
        EngineSettings settings = EngineSettings.from(new Config(0, 8, 5, 100, 250, false));

        assertEquals(new EngineSettings(0, 8, 5, 100, 250, false), settings);
    }

    @Test
    void anOutOfRangeValueRejectsTheWholeConfiguration() {
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(new Config(2, 64, 0, 100, 0, false)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(new Config(2, 64, 60, 100, 600_001, false)));
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(new Config(2, 2000, 60, 100, 0, false)));
    }

    @Test
    void fewerMaximumThanCoreThreadsIsRejected() {
        assertEquals(EngineSettings.DEFAULTS, EngineSettings.from(new Config(8, 4, 60, 100, 0, true)));
    }
}
