package org.rouse.lock.internal;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.config.ConfigCheck;
import org.rouse.lock.spi.LockEngine;
import org.rouse.lock.spi.LockPrimitive;
import org.rouse.lock.spi.ReadWritePrimitive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock engine: makes primitives of the strategies {@code adaptive} (the default), {@code fair}, {@code jdk} and
 * {@code spin-yield}, and read-write primitives of {@code jdk}, and of {@code adaptive} too when the configuration
 * property {@code adaptive.read.write} is {@code true} (experimental; off by default). The lock front in the API
 * bundle wraps them in swappable facades; consumers never see this class.
 *
 * <pre>{@code
 * LockEngine engine = new StrategyLockEngine();
 * LockPrimitive mutex = engine.newPrimitive("fair");
 * }</pre>
 */
@Component(service = LockEngine.class, configurationPid = StrategyLockEngine.PID)
@Designate(ocd = LockEngineConfig.class)
public final class StrategyLockEngine implements LockEngine {

    /** The PID of the engine's configuration. */
    public static final String PID = "org.rouse.lock.engine";

    static final int DEFAULT_SPIN_YIELD_SPINS = 1024;
    static final String SPIN_YIELD_SPINS = "spin.yield.spins";
    static final String ADAPTIVE_SPIN_MAX = "adaptive.spin.max";
    static final String ADAPTIVE_FAIRNESS_BOUND = "adaptive.fairness.bound.us";
    static final String ADAPTIVE_READ_WRITE = "adaptive.read.write";
    static final int MAX_ADAPTIVE_SPINS = 100_000;
    static final long MIN_FAIRNESS_BOUND_MICROS = 10L;
    /** The longest {@code adaptive.fairness.bound.us} accepted: 10 s. */
    public static final long MAX_FAIRNESS_BOUND_MICROS = 10_000_000L;

    private static final Logger LOG = LoggerFactory.getLogger(StrategyLockEngine.class);
    private static final Set<String> STRATEGIES = Collections.unmodifiableSet(new LinkedHashSet<>(
            List.of(AdaptiveMutex.STRATEGY, FairMutex.STRATEGY, JdkMutex.STRATEGY, SpinYieldMutex.STRATEGY)));
    private static final Set<String> READ_WRITE_STRATEGIES = Collections.unmodifiableSet(
            new LinkedHashSet<>(List.of(AdaptiveReadWrite.STRATEGY, JdkReadWrite.STRATEGY)));
    private static final Set<String> JDK_READ_WRITE_ONLY = Set.of(JdkReadWrite.STRATEGY);

    /** Spins before a spin-yield lock starts yielding; volatile, written by configure, read by primitives. */
    private volatile int spinYieldSpins = DEFAULT_SPIN_YIELD_SPINS;
    /** Tuning of adaptive locks; volatile, replaced whole by configure, read by primitives on their slow path. */
    private volatile AdaptiveTuning adaptiveTuning = AdaptiveTuning.DEFAULT;
    /**
     * The read-write strategies offered: {@code [adaptive, jdk]} or {@code [jdk]}; volatile, replaced by configure,
     * read by the front when it picks a read-write lock's strategy.
     */
    private volatile Set<String> readWriteStrategies = JDK_READ_WRITE_ONLY;

    /** An engine with the default configuration (DS, and tests without OSGi). */
    public StrategyLockEngine() {}

    /**
     * An engine with the default configuration except {@code adaptive.read.write} (tests and benchmarks without
     * OSGi).
     */
    public StrategyLockEngine(boolean adaptiveReadWrite) {
        readWriteStrategies = adaptiveReadWrite ? READ_WRITE_STRATEGIES : JDK_READ_WRITE_ONLY;
    }

    /**
     * An engine with the default configuration except {@code adaptive.spin.max} (benchmarks that compare spin caps
     * side by side, without OSGi).
     *
     * @throws IllegalArgumentException naming the property, the value and its range when {@code adaptiveSpinMax} is
     *     outside 0..100,000
     */
    public static StrategyLockEngine withAdaptiveSpinMax(long adaptiveSpinMax) {
        return withAdaptive(adaptiveSpinMax, AdaptiveTuning.DEFAULT_FAIRNESS_BOUND_MICROS);
    }

    /**
     * An engine with the default configuration except {@code adaptive.fairness.bound.us} (benchmarks that compare
     * fairness bounds side by side, without OSGi).
     *
     * @throws IllegalArgumentException naming the property, the value and its range when {@code fairnessBoundMicros}
     *     is outside 10..10,000,000
     */
    public static StrategyLockEngine withAdaptiveFairnessBound(long fairnessBoundMicros) {
        return withAdaptive(AdaptiveTuning.DEFAULT_MAX_SPINS, fairnessBoundMicros);
    }

    private static StrategyLockEngine withAdaptive(long adaptiveSpinMax, long fairnessBoundMicros) {
        ConfigCheck check = check(DEFAULT_SPIN_YIELD_SPINS, adaptiveSpinMax, fairnessBoundMicros);
        if (!check.passed()) {
            throw new IllegalArgumentException(check.rejection());
        }
        StrategyLockEngine engine = new StrategyLockEngine();
        engine.configure(DEFAULT_SPIN_YIELD_SPINS, adaptiveSpinMax, fairnessBoundMicros);
        return engine;
    }

    @Activate
    void activate(LockEngineConfig config) {
        configure(config);
    }

    @Modified
    void modified(LockEngineConfig config) {
        configure(config);
    }

    private void configure(LockEngineConfig config) {
        configure(
                config.spin_yield_spins(),
                config.adaptive_spin_max(),
                config.adaptive_fairness_bound_us(),
                config.adaptive_read_write());
    }

    /** {@link #configure(long, long, long, boolean)} with {@code adaptive.read.write} at its default, false. */
    boolean configure(long spins, long adaptiveSpinMax, long fairnessBoundMicros) {
        return configure(spins, adaptiveSpinMax, fairnessBoundMicros, false);
    }

    /**
     * Validates and applies all values or none; a rejection is logged and the last good configuration stays. A change
     * of {@code adaptiveReadWrite} changes {@link #readWriteStrategies()}; under DS the component's service
     * properties are updated with the configuration, and the lock front re-reads the offered set then.
     *
     * @return whether the values were applied
     */
    boolean configure(long spins, long adaptiveSpinMax, long fairnessBoundMicros, boolean adaptiveReadWrite) {
        ConfigCheck check = check(spins, adaptiveSpinMax, fairnessBoundMicros);
        if (!check.passed()) {
            LOG.error(check.rejection());
            return false;
        }
        spinYieldSpins = (int) spins;
        adaptiveTuning = new AdaptiveTuning((int) adaptiveSpinMax, fairnessBoundMicros * 1_000L);
        readWriteStrategies = adaptiveReadWrite ? READ_WRITE_STRATEGIES : JDK_READ_WRITE_ONLY;
        return true;
    }

    private static ConfigCheck check(long spins, long adaptiveSpinMax, long fairnessBoundMicros) {
        ConfigCheck check = new ConfigCheck(PID);
        check.inRange(SPIN_YIELD_SPINS, spins, 1, 1_000_000);
        check.inRange(ADAPTIVE_SPIN_MAX, adaptiveSpinMax, 0, MAX_ADAPTIVE_SPINS);
        check.inRange(
                ADAPTIVE_FAIRNESS_BOUND, fairnessBoundMicros, MIN_FAIRNESS_BOUND_MICROS, MAX_FAIRNESS_BOUND_MICROS);
        return check;
    }

    AdaptiveTuning adaptiveTuning() {
        return adaptiveTuning;
    }

    int spinYieldSpins() {
        return spinYieldSpins;
    }

    @Override
    public String name() {
        return "strategies";
    }

    /** {@code [adaptive, fair, jdk, spin-yield]}, in that order ({@code adaptive} is the default). */
    @Override
    public Set<String> strategies() {
        return STRATEGIES;
    }

    @Override
    public LockPrimitive newPrimitive(String strategy) {
        if (strategy == null) {
            throw new IllegalArgumentException("strategy must not be null; offered: " + STRATEGIES);
        }
        switch (strategy) {
            case AdaptiveMutex.STRATEGY:
                return new AdaptiveMutex(this::adaptiveTuning);
            case JdkMutex.STRATEGY:
                return JdkMutex.create();
            case FairMutex.STRATEGY:
                return new FairMutex();
            case SpinYieldMutex.STRATEGY:
                return new SpinYieldMutex(this::spinYieldSpins);
            default:
                throw new IllegalArgumentException("Unknown strategy '" + strategy + "'; offered: " + STRATEGIES);
        }
    }

    /**
     * {@code [jdk]}, or {@code [adaptive, jdk]} when {@code adaptive.read.write} is on: the strategies offered in
     * read-write form. The front gives a read-write lock its configured strategy when offered, else {@code adaptive}
     * when offered, else the first offered, so with the property off every read-write lock runs on {@code jdk}.
     */
    @Override
    public Set<String> readWriteStrategies() {
        return readWriteStrategies;
    }

    /**
     * Makes a read-write primitive of {@code adaptive} or {@code jdk}. It makes {@code adaptive} even while the
     * property is off, so a front that read the offered set just before a reconfiguration still gets a working
     * primitive; the service-property update that follows the reconfiguration moves that lock on.
     */
    @Override
    public ReadWritePrimitive newReadWritePrimitive(String strategy) {
        if (AdaptiveReadWrite.STRATEGY.equals(strategy)) {
            return new AdaptiveReadWrite(this::adaptiveTuning);
        }
        if (JdkReadWrite.STRATEGY.equals(strategy)) {
            return JdkReadWrite.create();
        }
        throw new IllegalArgumentException(
                "Unknown read-write strategy '" + strategy + "'; offered: " + READ_WRITE_STRATEGIES);
    }

    @Override
    public String toString() {
        return "StrategyLockEngine" + STRATEGIES;
    }
}
