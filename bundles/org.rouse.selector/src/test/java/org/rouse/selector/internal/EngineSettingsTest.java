package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineSettingsTest {

    /**
     * A configuration object as DS builds one from properties: each method of {@link SelectorEngineConfig} answers
     * the value stored under its name, starting from a valid configuration. {@link #with} changes one property, so a
     * new property needs one line here, not a copy of every value per test.
     */
    private static final class Config {
        private final Map<String, Object> values;

        private Config(Map<String, Object> values) {
            this.values = values;
        }

        static Config valid() {
            Map<String, Object> values = new HashMap<>();
            values.put("pool_core_threads", 0);
            values.put("pool_max_threads", 8);
            values.put("pool_idle_timeout_seconds", 5);
            values.put("pool_queue_capacity", 100);
            values.put("pool_most_recently_idle_first", false);
            values.put("loops", 3);
            values.put("select_timeout_ms", 250);
            values.put("watch_period_us", 200);
            values.put("wakeup_after_upcall", false);
            values.put("loop_wait_timeout_ms", 750);
            values.put("pool_grow_after_micros", 300);
            values.put("loop_handover", false);
            values.put("watch_adaptive", false);
            values.put("loop_takeover_after_micros", 500);
            return new Config(values);
        }

        Config with(String property, Object value) {
            Map<String, Object> changed = new HashMap<>(values);
            if (changed.put(property, value) == null) {
                throw new IllegalArgumentException("no such property: " + property);
            }
            return new Config(changed);
        }

        Config withPool(int core, int max, long idle) {
            return with("pool_core_threads", core)
                    .with("pool_max_threads", max)
                    .with("pool_idle_timeout_seconds", idle);
        }

        /** The configuration object; a number is converted to the method's type (int or long). */
        SelectorEngineConfig config() {
            return (SelectorEngineConfig) Proxy.newProxyInstance(
                    SelectorEngineConfig.class.getClassLoader(),
                    new Class<?>[] {SelectorEngineConfig.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "annotationType" -> SelectorEngineConfig.class;
                        case "toString" -> "SelectorEngineConfig" + values;
                        case "hashCode" -> values.hashCode();
                        case "equals" -> proxy == args[0];
                        default -> {
                            Object value = values.get(method.getName());
                            if (value == null) {
                                throw new AssertionError("no value for " + method.getName());
                            }
                            yield value instanceof Number number ? asReturnType(number, method.getReturnType()) : value;
                        }
                    });
        }

        private static Object asReturnType(Number number, Class<?> type) {
            if (type == long.class) {
                return number.longValue(); // boxed apart: a ?: of long and int would box both as Long
            }
            return number.intValue();
        }
    }

    @Test
    void aValidConfigurationIsTakenAsIs() {
        EngineSettings settings = EngineSettings.from(Config.valid().config());

        assertEquals(
                new EngineSettings(0, 8, 5, 100, false, 3, 250, 200, false, 750, 300, false, false, 500), settings);
    }

    @Test
    void anOutOfRangeValueRejectsTheWholeConfiguration() {
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(Config.valid().withPool(2, 64, 0).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(Config.valid().withPool(2, 2000, 60).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(Config.valid().with("loops", 0).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(Config.valid().with("loops", 65).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(Config.valid().with("watch_period_us", -1).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(
                        Config.valid().with("loop_takeover_after_micros", -1).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(Config.valid()
                        .with("loop_takeover_after_micros", 1_000_001)
                        .config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(
                        Config.valid().with("watch_period_us", 1_000_001).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(
                        Config.valid().with("loop_wait_timeout_ms", 0).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(
                        Config.valid().with("loop_wait_timeout_ms", 600_001).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(
                        Config.valid().with("pool_grow_after_micros", -1).config()));
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(
                        Config.valid().with("pool_grow_after_micros", 1_000_001).config()));
        assertEquals(
                0,
                EngineSettings.from(
                                Config.valid().with("pool_grow_after_micros", 0).config())
                        .growAfterMicros(),
                "0 = grow at once");
    }

    @Test
    void fewerMaximumThanCoreThreadsIsRejected() {
        assertEquals(
                EngineSettings.DEFAULTS,
                EngineSettings.from(Config.valid().withPool(8, 4, 60).config()));
    }
}
