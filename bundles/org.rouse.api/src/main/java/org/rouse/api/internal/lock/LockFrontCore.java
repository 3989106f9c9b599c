package org.rouse.api.internal.lock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.rouse.api.internal.Arguments;
import org.rouse.api.internal.events.RouseEvents;
import org.rouse.config.ConfigCheck;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.spi.ClusterLockProvider;
import org.rouse.lock.spi.LockEngine;
import org.rouse.lock.spi.LockPrimitive;
import org.rouse.lock.spi.ReadWritePrimitive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock front without OSGi: knows the active engine and the strategy policy, makes facades (plain and
 * read-write), swaps every live facade when either changes, and owns the namespace of shared locks. {@link LockFront} wires it into DS; tests
 * construct it directly.
 *
 * <pre>{@code
 * LockFrontCore core = new LockFrontCore();
 * core.swapTo(engine);                                  // or null: facades use the fallback mutex
 * core.configure("jdk", new String[] {"keyspace*=fair"});  // false (and logged) if rejected
 * LockService view = core.newView("my.bundle");
 * }</pre>
 */
public final class LockFrontCore {

    /*
     * Implementation notes.
     *
     * Layout. One monitor (this) orders engine changes, configuration changes and facade creation, so every facade is
     * made with, and swapped to, the engine and policy in force. Live facades are tracked weakly: a consumer that
     * drops an anonymous lock lets it be collected.
     *
     * Invariants.
     * 1. Swapping a facade never blocks (see LockFacade), so it is safe under the monitor.
     * 2. Lock order: view/shared maps, then this monitor; the monitor never calls into a view.
     * 3. Cluster routing is decided when a lock is looked up by name, never in lock()/unlock(): the only cost a
     *    local look-up pays for it is one volatile read of clusterLocks (null without the cluster bundle).
     */

    /** The PID of the front's configuration. */
    public static final String PID = "org.rouse.lock";

    private static final Logger LOG = LoggerFactory.getLogger(LockFrontCore.class);
    private static final String ENGINE_DEFAULT = "adaptive";

    /** The active engine or null; volatile for lock-free reads, written under this. */
    private volatile LockEngine engine;
    /** The last good policy; written under this. */
    private StrategyPolicy policy = StrategyPolicy.DEFAULT;
    /** Every live facade; guarded by this. */
    private final Set<LockFacade> facades = Collections.newSetFromMap(new WeakHashMap<>());
    /** Every live read-write facade; guarded by this. */
    private final Set<ReadWriteFacade> readWriteFacades = Collections.newSetFromMap(new WeakHashMap<>());
    /** Locks of the shared namespace; concurrent map, entries never removed while the front lives. */
    private final ConcurrentHashMap<String, LockFacade> shared = new ConcurrentHashMap<>();
    /**
     * Each lock's counts at the last monitoring reset (weak keys: a reset keeps no lock alive); guarded by itself,
     * never taken with this front's monitor held.
     */
    private final java.util.Map<Object, LockCounts> baselines = new WeakHashMap<>();
    /**
     * The health check's marks: each lock's counts when the newer and the older mark were taken (weak keys), and when.
     * Guarded by themselves ({@code recentMarks}), never taken with this front's monitor held.
     */
    private final RecentMarks recentMarks = new RecentMarks();
    /** The cluster lock provider consulted by name, or null; volatile for lock-free reads, written under this. */
    private volatile ClusterLockProvider clusterLocks;
    /** Numbers anonymous locks; incremented atomically. */
    private final AtomicLong anonymous = new AtomicLong();

    /** A front with the default policy and no engine. */
    public LockFrontCore() {}

    /**
     * Validates and applies a configuration, all or nothing; a rejected one is logged at ERROR and the last good one
     * stays. A valid change swaps every live facade whose strategy changed.
     *
     * @return whether the configuration was applied
     */
    public synchronized boolean configure(String strategy, String[] patterns) {
        ConfigCheck check = new ConfigCheck(PID);
        LockEngine active = engine;
        StrategyPolicy parsed =
                StrategyPolicy.parse(strategy, patterns, active == null ? null : active.strategies(), check);
        if (parsed == null) {
            LOG.error(check.rejection());
            return false;
        }
        policy = parsed;
        LOG.info("Lock policy: {}", parsed);
        if (active != null) {
            swapChanged(active);
        }
        return true;
    }

    /** Swaps every live facade whose wanted strategy on {@code active} differs from the one it runs or goes to. */
    private void swapChanged(LockEngine active) {
        for (LockFacade facade : liveFacades()) {
            String wanted = effectiveStrategy(active, facade.policyKey());
            if (!wanted.equals(facade.targetStrategy())) {
                facade.swapTo(newPrimitive(active, wanted), wanted);
            }
        }
        for (ReadWriteFacade facade : liveReadWriteFacades()) {
            String wanted = readWriteStrategy(active, facade.policyKey());
            if (!wanted.equals(facade.targetStrategy())) {
                facade.swapTo(newReadWritePrimitive(active, wanted), wanted);
            }
        }
    }

    /**
     * Makes {@code next} the active engine (null: none) and swaps every live facade to a primitive of it, keeping
     * each lock's configured strategy when the engine offers it. When {@code next} already is the active engine, its
     * offered strategies are read again and only the facades whose strategy thereby changes are swapped: an engine
     * whose configuration changes what it offers (the lock engine's {@code adaptive.read.write}) has its service
     * properties updated, and the front's {@code updated} callback lands here.
     */
    public synchronized void swapTo(LockEngine next) {
        LockEngine previous = engine;
        if (next == previous) {
            if (next != null) {
                swapChanged(next);
            }
            return;
        }
        engine = next;
        if (next == null) {
            LOG.info("No lock engine: locks use the built-in fallback mutex");
        } else {
            Set<String> missing = new HashSet<>(policy.strategies());
            missing.removeAll(next.strategies());
            if (!missing.isEmpty()) {
                LOG.warn(
                        "Lock engine {} lacks the configured strategies {}; those locks use '{}'",
                        next.name(),
                        missing,
                        engineDefault(next));
            }
            LOG.info("Lock engine {} active, strategies {}", next.name(), next.strategies());
        }
        long start = System.nanoTime();
        for (LockFacade facade : liveFacades()) {
            String wanted = next == null ? FallbackMutex.STRATEGY : effectiveStrategy(next, facade.policyKey());
            facade.swapTo(newPrimitive(next, wanted), wanted);
        }
        for (ReadWriteFacade facade : liveReadWriteFacades()) {
            String wanted = readWriteStrategy(next, facade.policyKey());
            facade.swapTo(newReadWritePrimitive(next, wanted), wanted);
        }
        RouseEvents.engineSwap(
                "lock",
                previous == null ? null : previous.name(),
                next == null ? null : next.name(),
                System.nanoTime() - start,
                facades.size() + readWriteFacades.size());
    }

    /**
     * Sets the provider of cluster locks consulted when a lock is looked up by name ({@code null}: every lock is
     * local). Locks already handed out keep their provider.
     */
    public synchronized void clusterLocks(ClusterLockProvider provider) {
        clusterLocks = provider;
    }

    /** Clears the cluster provider if it is {@code provider} (a replacement bound first stays). */
    public synchronized void clusterLocksGone(ClusterLockProvider provider) {
        if (clusterLocks == provider) {
            clusterLocks = null;
        }
    }

    /** The cluster provider that handles {@code name}, or null when the name is a local lock. */
    ClusterLockProvider clusterFor(String name) {
        ClusterLockProvider provider = clusterLocks;
        return provider != null && provider.handles(name) ? provider : null;
    }

    /** A new view for one consuming bundle. */
    public BundleLockView newView(String owner) {
        return new BundleLockView(this, Arguments.name(owner, "owner"));
    }

    /** The strategies of the active engine; empty when none is bound. */
    public Set<String> strategies() {
        LockEngine active = engine;
        return active == null ? Set.of() : Set.copyOf(active.strategies());
    }

    /** The name of the active engine, {@code "none"} when none is bound. */
    public String engineName() {
        LockEngine active = engine;
        return active == null ? "none" : active.name();
    }

    /** The lock of the shared namespace with this name. */
    SwappableLock sharedLock(String name) {
        return shared.computeIfAbsent(name, n -> newFacade("shared:" + n, n));
    }

    /** A generated name for an anonymous lock. */
    String anonymousName() {
        return "lock-" + anonymous.incrementAndGet();
    }

    /** Makes and tracks a facade with the primitive the current engine and policy give {@code policyKey}. */
    synchronized LockFacade newFacade(String name, String policyKey) {
        LockEngine active = engine;
        String wanted = active == null ? FallbackMutex.STRATEGY : effectiveStrategy(active, policyKey);
        LockFacade facade = new LockFacade(name, policyKey, newPrimitive(active, wanted));
        facades.add(facade);
        return facade;
    }

    /** Makes and tracks a read-write facade with the primitive the current engine and policy give {@code policyKey}. */
    synchronized ReadWriteFacade newReadWriteFacade(String name, String policyKey) {
        LockEngine active = engine;
        String wanted = readWriteStrategy(active, policyKey);
        ReadWriteFacade facade = new ReadWriteFacade(name, policyKey, newReadWritePrimitive(active, wanted));
        readWriteFacades.add(facade);
        return facade;
    }

    /** Stops tracking facades whose view was released. */
    synchronized void forget(Iterable<LockFacade> released) {
        for (LockFacade facade : released) {
            facades.remove(facade);
        }
    }

    /** Stops tracking read-write facades whose view was released. */
    synchronized void forgetReadWrite(Iterable<ReadWriteFacade> released) {
        for (ReadWriteFacade facade : released) {
            readWriteFacades.remove(facade);
        }
    }

    /** One live lock as monitoring sees it; {@code policyKey} is the name its strategy patterns match. */
    record LockSnapshot(String name, String policyKey, String strategy, LockCounts statistics) {}

    /**
     * A snapshot of every live lock (for the shell and JMX), each counted since the last {@link #resetStatistics()}
     * (since its creation before any reset).
     */
    List<LockSnapshot> snapshot() {
        List<LockSnapshot> all = new ArrayList<>();
        for (LockFacade facade : liveFacadesLocked()) {
            LockCounts now = (LockCounts) facade.statistics();
            LockCounts base;
            synchronized (baselines) {
                base = baselines.get(facade);
            }
            all.add(new LockSnapshot(
                    facade.name(), facade.policyKey(), facade.strategy(), base == null ? now : now.minus(base)));
        }
        for (ReadWriteFacade facade : liveReadWriteFacadesLocked()) {
            LockCounts now = (LockCounts) facade.statistics();
            LockCounts base;
            synchronized (baselines) {
                base = baselines.get(facade);
            }
            all.add(new LockSnapshot(
                    facade.name() + " (rw)",
                    facade.policyKey(),
                    facade.strategy(),
                    base == null ? now : now.minus(base)));
        }
        return all;
    }

    /**
     * Starts the monitoring counts of every live lock afresh: later {@link #snapshot()}s count from now. The locks'
     * own {@code statistics()}, which consumers read, are not changed.
     */
    void resetStatistics() {
        for (LockFacade facade : liveFacadesLocked()) {
            LockCounts now = (LockCounts) facade.statistics();
            synchronized (baselines) {
                baselines.put(facade, now);
            }
        }
        for (ReadWriteFacade facade : liveReadWriteFacadesLocked()) {
            LockCounts now = (LockCounts) facade.statistics();
            synchronized (baselines) {
                baselines.put(facade, now);
            }
        }
    }

    /**
     * Every live lock counted over the recent past, for the health check: since the older of two marks, which
     * {@code nowNanos} moves on once the newer is {@code windowNanos} old. A check that runs at least once a window
     * so sees between one and two windows; the first checks see each lock since its creation or the last reset.
     */
    List<LockSnapshot> recentSnapshot(long nowNanos, long windowNanos) {
        java.util.Map<Object, LockSnapshot> now = new java.util.IdentityHashMap<>(); // counts since creation
        for (LockFacade f : liveFacadesLocked()) {
            now.put(f, new LockSnapshot(f.name(), f.policyKey(), f.strategy(), (LockCounts) f.statistics()));
        }
        for (ReadWriteFacade f : liveReadWriteFacadesLocked()) {
            now.put(f, new LockSnapshot(f.name() + " (rw)", f.policyKey(), f.strategy(), (LockCounts) f.statistics()));
        }
        synchronized (recentMarks) {
            recentMarks.moveOn(now, nowNanos, windowNanos);
            List<LockSnapshot> recent = new ArrayList<>(now.size());
            for (java.util.Map.Entry<Object, LockSnapshot> e : now.entrySet()) {
                LockSnapshot lock = e.getValue();
                LockCounts base = recentMarks.older == null ? null : recentMarks.older.get(e.getKey());
                recent.add(
                        base == null
                                ? lock
                                : new LockSnapshot(
                                        lock.name(),
                                        lock.policyKey(),
                                        lock.strategy(),
                                        lock.statistics().minus(base)));
            }
            return recent;
        }
    }

    /** The health check's two generations of per-lock counts (weak keys); see {@link #recentSnapshot}. */
    private static final class RecentMarks {
        /** Counts at the newer mark; guarded by this. */
        private java.util.Map<Object, LockCounts> newer;
        /** When the newer mark was taken (System.nanoTime()); guarded by this. */
        private long newerNanos;
        /** Counts at the older mark, null before the second mark; guarded by this. */
        private java.util.Map<Object, LockCounts> older;

        /** Takes a new mark from {@code now} if there is none yet or the newer one is a window old; under this. */
        void moveOn(java.util.Map<Object, LockSnapshot> now, long nowNanos, long windowNanos) {
            if (newer != null && nowNanos - newerNanos < windowNanos) {
                return;
            }
            older = newer;
            newer = new WeakHashMap<>();
            for (java.util.Map.Entry<Object, LockSnapshot> e : now.entrySet()) {
                newer.put(e.getKey(), e.getValue().statistics());
            }
            newerNanos = nowNanos;
        }
    }

    /** The policy key of the live lock named {@code name}, or empty when no live lock has that name. */
    java.util.Optional<String> policyKeyOf(String name) {
        for (LockFacade facade : liveFacadesLocked()) {
            if (facade.name().equals(name)) {
                return java.util.Optional.of(facade.policyKey());
            }
        }
        return java.util.Optional.empty();
    }

    /** The default strategy and patterns in force, as configured. */
    synchronized String policyDescription() {
        return policy.toString();
    }

    private synchronized List<LockFacade> liveFacadesLocked() {
        return liveFacades();
    }

    private synchronized List<ReadWriteFacade> liveReadWriteFacadesLocked() {
        return liveReadWriteFacades();
    }

    /** How many facades (plain and read-write) are tracked (for tests: a released view must not leave them behind). */
    synchronized int trackedFacades() {
        return facades.size() + readWriteFacades.size();
    }

    private List<LockFacade> liveFacades() {
        return new ArrayList<>(facades);
    }

    private List<ReadWriteFacade> liveReadWriteFacades() {
        return new ArrayList<>(readWriteFacades);
    }

    /**
     * The read-write strategy for {@code policyKey}: the configured one if the engine makes it in read-write form,
     * else the engine's {@code adaptive}, else its first read-write strategy, else the built-in fallback.
     */
    private String readWriteStrategy(LockEngine active, String policyKey) {
        if (active == null) {
            return FallbackMutex.STRATEGY;
        }
        Set<String> offered = readWriteStrategies(active);
        String configured = policy.strategyFor(policyKey);
        if (offered.contains(configured)) {
            return configured;
        }
        if (offered.contains(ENGINE_DEFAULT)) {
            return ENGINE_DEFAULT;
        }
        return offered.isEmpty() ? FallbackMutex.STRATEGY : offered.iterator().next();
    }

    private static Set<String> readWriteStrategies(LockEngine active) {
        try {
            Set<String> offered = active.readWriteStrategies();
            return offered == null ? Set.of() : offered;
        } catch (RuntimeException | LinkageError e) { // an engine built against an SPI without read-write locks
            return Set.of();
        }
    }

    private static ReadWritePrimitive newReadWritePrimitive(LockEngine active, String strategy) {
        if (active == null || !readWriteStrategies(active).contains(strategy)) {
            return FallbackReadWrite.create();
        }
        try {
            return Arguments.notNull(active.newReadWritePrimitive(strategy), "primitive");
        } catch (RuntimeException e) {
            LOG.error(
                    "Lock engine {} failed to make a '{}' read-write primitive; using the fallback",
                    active.name(),
                    strategy,
                    e);
            return FallbackReadWrite.create();
        }
    }

    private String effectiveStrategy(LockEngine active, String policyKey) {
        String configured = policy.strategyFor(policyKey);
        return active.strategies().contains(configured) ? configured : engineDefault(active);
    }

    private static String engineDefault(LockEngine active) {
        Set<String> offered = active.strategies();
        return offered.contains(ENGINE_DEFAULT)
                ? ENGINE_DEFAULT
                : offered.iterator().next();
    }

    private static LockPrimitive newPrimitive(LockEngine active, String strategy) {
        if (active == null) {
            return FallbackMutex.create();
        }
        try {
            return Arguments.notNull(active.newPrimitive(strategy), "primitive");
        } catch (RuntimeException e) {
            LOG.error(
                    "Lock engine {} failed to make a '{}' primitive; using the fallback mutex",
                    active.name(),
                    strategy,
                    e);
            return FallbackMutex.create();
        }
    }
}
