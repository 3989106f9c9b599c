package org.rouse.benchmarks.selector;

import org.rouse.selector.internal.EngineSettings;
import org.rouse.selector.internal.NioSelectorEngine;

/**
 * Starts the real NIO selector engine outside OSGi for the benchmarks, through the engine's public factory
 * {@link NioSelectorEngine#started(EngineSettings)}.
 *
 * <pre>{@code
 * NioSelectorEngine engine = BenchmarkEngines.start(BenchmarkEngines.Tuning.DEFAULTS.withLoops(2));
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
        return start(Tuning.DEFAULTS.withSelect(selectTimeoutMs, wakeupAfterUpcall));
    }

    /** An engine with {@code tuning}'s settings (not validated: benchmark variants only). */
    public static NioSelectorEngine start(Tuning tuning) {
        return NioSelectorEngine.started(tuning.settings);
    }

    /** Stops the loop and the worker pool and waits for them. */
    public static void stop(NioSelectorEngine engine) {
        NioSelectorEngine.stop(engine);
    }

    /**
     * The engine settings a benchmark variant changes, derived from the defaults; immutable. Names only the knobs the
     * benchmarks turn, over {@link EngineSettings}.
     *
     * <pre>{@code
     * Tuning omniOrbPool = Tuning.DEFAULTS.withIdleTimeoutSeconds(10);
     * }</pre>
     */
    public static final class Tuning {

        /** The engine's defaults (pool 2..64 threads, 60 s idle timeout, most recently idle first, one loop). */
        public static final Tuning DEFAULTS = new Tuning(EngineSettings.DEFAULTS);

        private final EngineSettings settings;

        private Tuning(EngineSettings settings) {
            this.settings = settings;
        }

        /** With another select timeout ({@code 0} = none) and post-upcall wakeup. */
        public Tuning withSelect(long timeoutMs, boolean wakeupAfterUpcall) {
            return new Tuning(settings.withSelect(timeoutMs, wakeupAfterUpcall));
        }

        /** With another idle timeout of the pool threads above the core size (the pool sizes stay). */
        public Tuning withIdleTimeoutSeconds(long seconds) {
            return new Tuning(settings.withPool(settings.coreThreads(), settings.maxThreads(), seconds));
        }

        /** With the other hand-off order: {@code false} hands an upcall to the longest idle worker. */
        public Tuning withMostRecentlyIdleFirst(boolean mostRecentlyIdleFirst) {
            return new Tuning(settings.withMostRecentlyIdleFirst(mostRecentlyIdleFirst));
        }

        /** With {@code count} select loops. */
        public Tuning withLoops(int count) {
            return new Tuning(settings.withLoops(count));
        }

        /** With another grace before the pool grows for a waiting upcall ({@code 0} = grow at once). */
        public Tuning withGrowAfterMicros(long micros) {
            return new Tuning(settings.withGrowAfterMicros(micros));
        }

        /** With the loops' hand-over of the selecting role on or off ({@code false}: every pool upcall on a worker). */
        public Tuning withLoopHandover(boolean handover) {
            return new Tuning(settings.withLoopHandover(handover));
        }

        /** With another take-over bound of the loops ({@code 0}: hand the loop over before each pool upcall it runs). */
        public Tuning withLoopTakeoverAfterMicros(long micros) {
            return new Tuning(settings.withLoopTakeoverAfterMicros(micros));
        }

        /** The watch after every upcall (false) or, as by default, only for channels called again soon (true). */
        public Tuning withWatchAdaptive(boolean adaptive) {
            return new Tuning(settings.withWatchAdaptive(adaptive));
        }

        /** With a post-upcall watch period ({@code 0} = none). */
        public Tuning withWatchPeriodMicros(long micros) {
            return new Tuning(settings.withWatchPeriodMicros(micros));
        }

        @Override
        public String toString() {
            return settings.toString();
        }
    }
}
