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
 * {@code spin-yield}, and read-write primitives of {@code adaptive} and {@code jdk}. The lock
 * front in the API bundle wraps them in swappable facades; consumers never see this class.
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
    static final int MAX_ADAPTIVE_SPINS = 100_000;
    static final long MIN_FAIRNESS_BOUND_MICROS = 10L;
    static final long MAX_FAIRNESS_BOUND_MICROS = 10_000_000L;

    private static final Logger LOG = LoggerFactory.getLogger(StrategyLockEngine.class);
    private static final Set<String> STRATEGIES = Collections.unmodifiableSet(new LinkedHashSet<>(
            List.of(AdaptiveMutex.STRATEGY, FairMutex.STRATEGY, JdkMutex.STRATEGY, SpinYieldMutex.STRATEGY)));
    private static final Set<String> READ_WRITE_STRATEGIES = Collections.unmodifiableSet(
            new LinkedHashSet<>(List.of(AdaptiveReadWrite.STRATEGY, JdkReadWrite.STRATEGY)));

    /** Spins before a spin-yield lock starts yielding; volatile, written by configure, read by primitives. */
    private volatile int spinYieldSpins = DEFAULT_SPIN_YIELD_SPINS;
    /** Tuning of adaptive locks; volatile, replaced whole by configure, read by primitives on their slow path. */
    private volatile AdaptiveTuning adaptiveTuning = AdaptiveTuning.DEFAULT;

    /** An engine with the default configuration (DS, and tests without OSGi). */
    public StrategyLockEngine() {}

    @Activate
    void activate(LockEngineConfig config) {
        configure(config);
    }

    @Modified
    void modified(LockEngineConfig config) {
        configure(config);
    }

    private void configure(LockEngineConfig config) {
        configure(config.spin_yield_spins(), config.adaptive_spin_max(), config.adaptive_fairness_bound_us());
    }

    /**
     * Validates and applies all values or none; a rejection is logged and the last good configuration stays.
     *
     * @return whether the values were applied
     */
    boolean configure(long spins, long adaptiveSpinMax, long fairnessBoundMicros) {
        ConfigCheck check = new ConfigCheck(PID);
        check.inRange(SPIN_YIELD_SPINS, spins, 1, 1_000_000);
        check.inRange(ADAPTIVE_SPIN_MAX, adaptiveSpinMax, 0, MAX_ADAPTIVE_SPINS);
        check.inRange(
                ADAPTIVE_FAIRNESS_BOUND, fairnessBoundMicros, MIN_FAIRNESS_BOUND_MICROS, MAX_FAIRNESS_BOUND_MICROS);
        if (!check.passed()) {
            LOG.error(check.rejection());
            return false;
        }
        spinYieldSpins = (int) spins;
        adaptiveTuning = new AdaptiveTuning((int) adaptiveSpinMax, fairnessBoundMicros * 1_000L);
        return true;
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
                return new JdkMutex();
            case FairMutex.STRATEGY:
                return new FairMutex();
            case SpinYieldMutex.STRATEGY:
                return new SpinYieldMutex(this::spinYieldSpins);
            default:
                throw new IllegalArgumentException("Unknown strategy '" + strategy + "'; offered: " + STRATEGIES);
        }
    }

    /** {@code [adaptive, jdk]}: the strategies with a read-write form ({@code adaptive} is the default). */
    @Override
    public Set<String> readWriteStrategies() {
        return READ_WRITE_STRATEGIES;
    }

    @Override
    public ReadWritePrimitive newReadWritePrimitive(String strategy) {
        if (AdaptiveReadWrite.STRATEGY.equals(strategy)) {
            return new AdaptiveReadWrite(this::adaptiveTuning);
        }
        if (JdkReadWrite.STRATEGY.equals(strategy)) {
            return new JdkReadWrite();
        }
        throw new IllegalArgumentException(
                "Unknown read-write strategy '" + strategy + "'; offered: " + READ_WRITE_STRATEGIES);
    }

    @Override
    public String toString() {
        return "StrategyLockEngine" + STRATEGIES;
    }
}
