package org.rouse.benchmarks.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.api.internal.lock.LockFacade;
import org.rouse.benchmarks.scenario.IsolatedClasses;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;
import org.rouse.lock.internal.StrategyLockEngine;

class IsolatedVariantsTest {

    @Test
    @Timeout(60)
    void twoContentionVariantsRunTheirOwnCopiesOfTheBenchmarkAndFacadeClasses() throws Exception {
        try (Variant first = IsolatedVariants.contention(0, 2, false);
                Variant second = IsolatedVariants.contention(0, 2, false)) {
            ClassLoader firstLoader = first.getClass().getClassLoader();
            ClassLoader secondLoader = second.getClass().getClassLoader();

            assertEquals(ContentionVariant.class.getName(), first.getClass().getName());
            assertInstanceOf(IsolatedClasses.class, firstLoader);
            assertNotSame(ContentionVariant.class, first.getClass(), "not the harness's copy");
            assertNotSame(first.getClass(), second.getClass(), "not each other's copy");
            assertNotSame(loaded(LockFacade.class, firstLoader), loaded(LockFacade.class, secondLoader));
            assertNotSame(LockFacade.class, loaded(LockFacade.class, firstLoader));
            assertNotSame(StrategyLockEngine.class, loaded(StrategyLockEngine.class, firstLoader), "the engine too");
            assertSame(Variant.class, loaded(Variant.class, firstLoader), "the harness's types stay shared");
        }
    }

    @Test
    @Timeout(60)
    void anIsolatedVariantMeasuresWithoutViolations() throws Exception {
        try (Variant variant = IsolatedVariants.contention(3, 2, true)) {
            variant.open();
            Measurement round = variant.runRound(Duration.ofMillis(200));

            assertEquals("rouse jdk, work", variant.name());
            assertTrue(round.value(LockMetrics.THROUGHPUT) > 0, "acquisitions counted: " + round.values());
            assertEquals(0.0, round.value(LockMetrics.VIOLATIONS), "mutual exclusion held");
        }
    }

    @Test
    @Timeout(60)
    void readWriteVariantsAreIsolatedToo() throws Exception {
        try (Variant variant = IsolatedVariants.readWrite(0, 5)) {
            assertEquals("rouse adaptive (rw)", variant.name());
            assertInstanceOf(IsolatedClasses.class, variant.getClass().getClassLoader());
        }
    }

    @Test
    @Timeout(60)
    void aPrimitiveAloneRowMeasuresTheBarePrimitiveWithoutViolations() throws Exception {
        try (Variant variant = IsolatedVariants.readWrite(1, 25)) {
            variant.open();
            Measurement round = variant.runRound(Duration.ofMillis(200));

            assertEquals("adaptive primitive alone (rw)", variant.name());
            assertTrue(round.value(LockMetrics.THROUGHPUT) > 0, "operations counted: " + round.values());
            assertEquals(0.0, round.value(LockMetrics.VIOLATIONS), "no writer together with anyone");
        }
    }

    @Test
    @Timeout(60)
    void everyLockScenarioMakesEachVariantOnceWithItsBaseline(@TempDir Path dir) throws Exception {
        Options quick = new Options(true, dir);
        for (Scenario scenario : List.of(
                new LockContention(16),
                LockContention.fairnessCost(64),
                LockContention.facadeCost(64),
                new ReadMostly(),
                ReadMostly.writeHeavy())) {
            List<Variant> variants = scenario.variants(quick);
            try {
                Set<String> names = new HashSet<>();
                for (Variant v : variants) {
                    assertTrue(names.add(v.name()), scenario.name() + ": one row per name, " + v.name());
                    assertInstanceOf(IsolatedClasses.class, v.getClass().getClassLoader(), v.name());
                }
                assertTrue(names.contains(scenario.layout().baselineVariant()), scenario.name() + ": " + names);
            } finally {
                for (Variant v : variants) {
                    v.close();
                }
            }
        }
        assertEquals(
                List.of(
                        "rouse adaptive, no work",
                        "rouse adaptive, fairness bound 10 s, no work",
                        "ReentrantLock, no work",
                        "rouse adaptive, work",
                        "rouse adaptive, fairness bound 10 s, work",
                        "ReentrantLock, work"),
                LockContention.fairnessCost(2).variants(quick).stream()
                        .map(Variant::name)
                        .toList());
    }

    @Test
    @Timeout(60)
    void aPrimitiveAloneGuardCountsAcquisitionsWithoutViolations() throws Exception {
        try (Variant variant = IsolatedVariants.contention(Guard.ADAPTIVE_PRIMITIVE_ALONE, 4, false)) {
            variant.open();
            Measurement round = variant.runRound(Duration.ofMillis(200));

            assertEquals("adaptive primitive alone, no work", variant.name());
            assertTrue(round.value(LockMetrics.THROUGHPUT) > 0, "acquisitions counted: " + round.values());
            assertEquals(0.0, round.value(LockMetrics.VIOLATIONS), "mutual exclusion held");
        }
    }

    private static Class<?> loaded(Class<?> c, ClassLoader loader) throws ClassNotFoundException {
        return Class.forName(c.getName(), false, loader);
    }
}
