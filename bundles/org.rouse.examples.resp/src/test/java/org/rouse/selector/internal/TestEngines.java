package org.rouse.selector.internal;

/** Starts the real NIO selector engine outside OSGi for the RESP server's tests (same package: its settings). */
public final class TestEngines {

    private TestEngines() {}

    /** An engine whose select never times out: a missing wakeup shows as a test timeout. */
    public static NioSelectorEngine start() {
        return new NioSelectorEngine(new EngineSettings(2, 16, 60, 10_000, 0, true));
    }

    public static void stop(NioSelectorEngine engine) {
        engine.shutdown();
    }
}
