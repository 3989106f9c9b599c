package org.rouse.selector.internal;

/** Starts the real NIO selector engine outside OSGi for the RESP server's tests (same package: its settings). */
public final class TestEngines {

    private TestEngines() {}

    /** An engine whose select never times out: a missing wakeup shows as a test timeout. */
    public static NioSelectorEngine start() {
        return new NioSelectorEngine(EngineSettings.DEFAULTS.withPool(2, 16, 60));
    }

    public static void stop(NioSelectorEngine engine) {
        engine.shutdown();
    }
}
