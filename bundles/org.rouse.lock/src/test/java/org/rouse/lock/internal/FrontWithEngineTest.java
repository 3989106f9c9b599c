package org.rouse.lock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.lock.BundleLockView;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.lock.LockService;
import org.rouse.lock.LockStripes;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.SwappableReadWriteLock;
import org.rouse.lock.spi.AqsMutex;
import org.rouse.lock.spi.BargingMutex;
import org.rouse.lock.spi.LockEngine;
import org.rouse.lock.spi.LockPrimitive;

/** The front's policy and engine handling with the real engine. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FrontWithEngineTest {

    private final LockFrontCore core = new LockFrontCore();
    private final StrategyLockEngine engine = new StrategyLockEngine();

    @Test
    void patternsChooseTheStrategyFirstMatchWins() {
        core.swapTo(engine);
        assertTrue(core.configure("jdk", new String[] {"keyspace*=fair", "spin?=spin-yield", "keyspace-x=jdk"}));
        LockService view = core.newView("a.bundle");
        assertEquals("fair", view.lock("keyspace-users").strategy());
        assertEquals("fair", view.lock("keyspace-x").strategy(), "the first matching entry wins");
        assertEquals("spin-yield", view.lock("spin1").strategy());
        assertEquals("jdk", view.lock("spin12").strategy(), "'?' matches exactly one character");
        assertEquals("jdk", view.lock("cache").strategy());
        LockStripes stripes = view.stripes("keyspace", 4);
        for (int i = 0; i < stripes.size(); i++) {
            assertEquals("fair", stripes.at(i).strategy(), "stripes match by their set's name");
        }
        assertEquals(Set.of("adaptive", "jdk", "fair", "spin-yield"), view.strategies());
    }

    @Test
    void theJdkStrategyIsAnAqsMutex() {
        LockPrimitive jdk = new StrategyLockEngine().newPrimitive("jdk");
        assertInstanceOf(AqsMutex.class, jdk);
        assertEquals("jdk", jdk.strategy());
        assertFalse(jdk.isLocked());
        assertTrue(jdk.tryLock());
        assertTrue(jdk.isLocked());
        assertFalse(jdk.tryLock(), "not reentrant: the facade keeps the hold count");
        jdk.unlock();
        assertFalse(jdk.isLocked());
    }

    @Test
    void theAdaptiveStrategyIsABargingMutexSoTheFacadeInlinesItsFastPaths() {
        LockPrimitive adaptive = new StrategyLockEngine().newPrimitive("adaptive");
        assertInstanceOf(BargingMutex.class, adaptive);
        assertTrue(adaptive.tryLock());
        assertFalse(adaptive.tryLock(), "not reentrant: the facade keeps the hold count");
        adaptive.unlock();
        assertFalse(adaptive.isLocked());
    }

    @Test
    void theDefaultStrategyIsAdaptive() {
        core.swapTo(engine);
        assertEquals("adaptive", core.newView("a.bundle").newLock().strategy());
    }

    @Test
    void readWriteLocksDefaultToJdkWhateverTheConfiguredStrategy() {
        core.swapTo(engine);
        assertEquals(Set.of("jdk"), engine.readWriteStrategies(), "adaptive.read.write is off by default");
        LockService view = core.newView("a.bundle");
        SwappableReadWriteLock rw = view.readWriteLock("rw");
        assertEquals("jdk", rw.strategy());
        assertEquals("adaptive", view.lock("plain").strategy(), "plain locks keep the adaptive default");
        assertTrue(core.configure("adaptive", new String[] {"rw*=adaptive"}));
        assertEquals("jdk", rw.strategy(), "adaptive is not offered in read-write form");
        assertEquals("jdk", view.readWriteLock("rw2").strategy());
        assertEquals(0, rw.statistics().swaps());
    }

    @Test
    void turningAdaptiveReadWriteOnAndOffSwapsLiveReadWriteLocksOnly() throws Exception {
        core.swapTo(engine);
        LockService view = core.newView("a.bundle");
        SwappableReadWriteLock free = view.readWriteLock("free");
        SwappableReadWriteLock held = view.readWriteLock("held");
        SwappableLock plain = view.lock("plain");
        assertEquals("jdk", free.strategy());
        held.readLock().lock();
        try {
            // what DS does on a configuration change: configure the engine, then the front's updated callback
            assertTrue(engine.configure(1024, 100, 1_000, true));
            core.swapTo(engine);
            assertEquals(Set.of("adaptive", "jdk"), engine.readWriteStrategies());
            assertEquals("adaptive", free.strategy(), "a free read-write lock swaps at once");
            assertEquals("jdk", held.strategy(), "a read-held lock swaps at its last unlock");
            assertFalse(writeElsewhere(held), "the read hold still excludes writers");
        } finally {
            held.readLock().unlock();
        }
        assertEquals("adaptive", held.strategy());
        assertEquals("adaptive", view.readWriteLock("new").strategy());
        assertEquals(0, plain.statistics().swaps(), "plain locks are left alone");

        assertTrue(engine.configure(1024, 100, 1_000, false));
        core.swapTo(engine);
        assertEquals("jdk", free.strategy());
        assertEquals("jdk", held.strategy());
        assertEquals(2, free.statistics().swaps());
        assertTrue(writeElsewhere(free), "the swapped lock works");
    }

    /** Whether another thread can take {@code lock}'s write lock now (it releases it again). */
    private static boolean writeElsewhere(SwappableReadWriteLock lock) throws InterruptedException {
        AtomicBoolean got = new AtomicBoolean();
        Thread t = new Thread(() -> {
            if (lock.writeLock().tryLock()) {
                got.set(true);
                lock.writeLock().unlock();
            }
        });
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive());
        return got.get();
    }

    @Test
    void anEngineBuiltWithASpinCapSpinsAtMostThatAndRejectsOneOutOfRange() {
        assertEquals(
                100,
                StrategyLockEngine.withAdaptiveSpinMax(100).adaptiveTuning().maxSpins());
        assertEquals(
                AdaptiveTuning.DEFAULT_FAIRNESS_BOUND_MICROS * 1_000L,
                StrategyLockEngine.withAdaptiveSpinMax(0).adaptiveTuning().fairnessBoundNanos(),
                "everything but the cap stays at its default");
        IllegalArgumentException rejected =
                assertThrows(IllegalArgumentException.class, () -> StrategyLockEngine.withAdaptiveSpinMax(100_001));
        assertTrue(rejected.getMessage().contains("adaptive.spin.max"), rejected.getMessage());
        assertTrue(rejected.getMessage().contains("100001"), rejected.getMessage());
    }

    @Test
    void anEngineBuiltWithAFairnessBoundUsesItAndRejectsOneOutOfRange() {
        AdaptiveTuning tuning =
                StrategyLockEngine.withAdaptiveFairnessBound(10_000_000L).adaptiveTuning();
        assertEquals(10_000_000_000L, tuning.fairnessBoundNanos());
        assertEquals(
                AdaptiveTuning.DEFAULT_MAX_SPINS, tuning.maxSpins(), "everything but the bound stays at its default");
        IllegalArgumentException rejected = assertThrows(
                IllegalArgumentException.class, () -> StrategyLockEngine.withAdaptiveFairnessBound(10_000_001L));
        assertTrue(rejected.getMessage().contains("adaptive.fairness.bound.us"), rejected.getMessage());
        assertTrue(rejected.getMessage().contains("10000001"), rejected.getMessage());
    }

    @Test
    void invalidConfigurationIsRejectedWholeAndTheLastGoodStays() {
        core.swapTo(engine);
        assertTrue(core.configure("fair", new String[] {"a*=jdk"}));
        SwappableLock lock = core.newView("a.bundle").lock("b");
        assertEquals("fair", lock.strategy());

        assertFalse(core.configure("mcs", new String[0]), "a strategy the engine does not offer");
        assertFalse(core.configure("jdk", new String[] {"keyspace*"}), "an entry without '='");
        assertFalse(core.configure("jdk", new String[] {"=fair"}), "an empty glob");
        assertFalse(core.configure("jdk", new String[] {"b=nope"}), "valid default, bad pattern: all or nothing");
        assertFalse(core.configure("not a name!", new String[0]));

        assertEquals("fair", lock.strategy());
        assertEquals("jdk", core.newView("a.bundle").lock("abc").strategy(), "the last good patterns stay");
        assertEquals(0, lock.statistics().swaps());
    }

    @Test
    void aValidChangeSwapsLiveLocksAtOnceOrAtTheirFinalUnlock() throws Exception {
        core.swapTo(engine);
        assertTrue(core.configure("jdk", new String[] {"unchanged*=jdk"}));
        LockService view = core.newView("a.bundle");
        SwappableLock free = view.lock("free");
        SwappableLock held = view.lock("held");
        SwappableLock unchanged = view.lock("unchanged-x");
        held.lock();
        held.lock();
        try {
            assertTrue(core.configure("spin-yield", new String[] {"unchanged*=jdk"}));
            assertEquals("spin-yield", free.strategy(), "a free lock swaps at once");
            assertEquals(1, free.statistics().swaps());
            assertEquals("jdk", held.strategy(), "a held lock swaps only at its final unlock");
            held.unlock();
            assertEquals("jdk", held.strategy());
            assertFalse(TestThreads.tryLockElsewhere(held));
        } finally {
            held.unlock();
        }
        assertEquals("spin-yield", held.strategy());
        assertEquals(1, held.statistics().swaps());
        assertEquals(0, unchanged.statistics().swaps(), "a lock whose strategy did not change is left alone");
    }

    @Test
    void withoutAnEngineLocksUseTheFallbackAndOnlySyntaxIsChecked() throws Exception {
        assertTrue(core.configure("mcs", new String[] {"x*=later"}), "no engine: names are not checked yet");
        assertFalse(core.configure("bad name", new String[0]));
        LockService view = core.newView("a.bundle");
        SwappableLock lock = view.lock("x1");
        assertEquals("fallback", lock.strategy());
        assertEquals(Set.of(), view.strategies());
        lock.lock();
        try {
            assertFalse(TestThreads.tryLockElsewhere(lock));
        } finally {
            lock.unlock();
        }

        core.swapTo(engine); // lacks 'mcs' and 'later': WARN, and the engine's default
        assertEquals("adaptive", lock.strategy());
        assertEquals("adaptive", view.lock("other").strategy());

        core.swapTo(null);
        assertEquals("fallback", lock.strategy());
        assertEquals(2, lock.statistics().swaps());
    }

    @Test
    void anEngineWithoutAdaptiveGivesItsFirstStrategy() {
        assertTrue(core.configure("adaptive", new String[0]));
        core.swapTo(new OnlyFair(engine));
        assertEquals("fair", core.newView("a.bundle").newLock().strategy());
    }

    @Test
    void engineChangesMoveLocksWhileThreadsUseThem() throws Exception {
        core.swapTo(engine);
        assertTrue(core.configure("fair", new String[0]));
        SwappableLock lock = core.newView("a.bundle").lock("moving");
        StrategyLockEngine other = new StrategyLockEngine();
        AtomicBoolean stop = new AtomicBoolean();
        int[] inside = {0};
        int[] violations = {0};
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = TestThreads.start("mover", 4, failures, i -> {
            while (!stop.get()) {
                lock.lock();
                try {
                    if (++inside[0] != 1) {
                        violations[0]++;
                    }
                    inside[0]--;
                } finally {
                    lock.unlock();
                }
            }
        });
        for (int k = 0; k < 60; k++) {
            core.swapTo(k % 3 == 0 ? other : k % 3 == 1 ? null : engine);
            Thread.yield();
        }
        core.swapTo(other);
        stop.set(true);
        TestThreads.joinAll(workers, Duration.ofSeconds(20), failures);
        lock.lock();
        try {
            assertEquals(0, violations[0]);
        } finally {
            lock.unlock();
        }
        assertEquals("fair", lock.strategy());
        assertTrue(lock.statistics().swaps() > 0);
    }

    @Test
    void releasedViewForgetsItsLocksWithAnEngine() {
        core.swapTo(engine);
        BundleLockView view = core.newView("a.bundle");
        SwappableLock before = view.lock("n");
        view.stripes("s", 8);
        view.release();
        assertThrows(IllegalStateException.class, () -> view.lock("n"));
        assertThrows(IllegalStateException.class, () -> view.stripes("s", 8));
        assertFalse(before == core.newView("a.bundle").lock("n"), "a released name must be forgotten");
    }

    @Test
    void engineConfigurationIsRangeChecked() {
        assertEquals(StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS, engine.spinYieldSpins());
        assertEquals(AdaptiveTuning.DEFAULT, engine.adaptiveTuning());
        assertFalse(engine.configure(0, 100, 1_000));
        assertFalse(engine.configure(1_000_001, 100, 1_000));
        assertFalse(engine.configure(1, -1, 1_000), "negative adaptive spin limit");
        assertFalse(engine.configure(1, 100_001, 1_000), "adaptive spin limit too large");
        assertFalse(engine.configure(1, 100, 9), "fairness bound below 10 µs");
        assertFalse(engine.configure(1, 100, 10_000_001), "fairness bound above 10 s");
        assertEquals(StrategyLockEngine.DEFAULT_SPIN_YIELD_SPINS, engine.spinYieldSpins());
        assertEquals(AdaptiveTuning.DEFAULT, engine.adaptiveTuning(), "all or nothing: nothing applied");
        assertTrue(engine.configure(1, 0, 50));
        assertEquals(1, engine.spinYieldSpins());
        assertEquals(new AdaptiveTuning(0, 50_000), engine.adaptiveTuning());
        assertThrows(IllegalArgumentException.class, () -> engine.newPrimitive("mcs"));
        assertThrows(IllegalArgumentException.class, () -> engine.newPrimitive(null));
    }

    /** A real engine restricted to its fair strategy, as an engine that lacks {@code adaptive}. */
    private static final class OnlyFair implements LockEngine {
        private final LockEngine delegate;

        OnlyFair(LockEngine delegate) {
            this.delegate = delegate;
        }

        @Override
        public String name() {
            return "only-fair";
        }

        @Override
        public Set<String> strategies() {
            return Set.of("fair");
        }

        @Override
        public LockPrimitive newPrimitive(String strategy) {
            if (!strategy.equals("fair")) {
                throw new IllegalArgumentException(strategy);
            }
            return delegate.newPrimitive(strategy);
        }
    }
}
