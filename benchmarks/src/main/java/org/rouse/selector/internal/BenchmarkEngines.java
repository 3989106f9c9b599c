package org.rouse.selector.internal;

/**
 * Starts the real NIO selector engine outside OSGi for the benchmarks (in the engine's package because its settings
 * and shutdown are package-private, as for the RESP example's {@code TestEngines}).
 *
 * <pre>{@code
 * NioSelectorEngine engine = BenchmarkEngines.start(0, true); // the defaults
 * ...
 * BenchmarkEngines.stop(engine);
 * }</pre>
 */
public final class BenchmarkEngines {

    private BenchmarkEngines() {}

    /**
     * An engine with the default pool and the given select timeout and post-upcall wakeup.
     *
     * @param selectTimeoutMs the longest select; 0 = none (the default)
     * @param wakeupAfterUpcall {@code false} reproduces the omniORB bug: a re-armed channel waits for the timeout
     */
    public static NioSelectorEngine start(long selectTimeoutMs, boolean wakeupAfterUpcall) {
        return new NioSelectorEngine(EngineSettings.DEFAULTS.withSelect(selectTimeoutMs, wakeupAfterUpcall));
    }

    /** Stops the loop and the worker pool and waits for them. */
    public static void stop(NioSelectorEngine engine) {
        engine.shutdown();
    }
}
