package org.rouse.benchmarks.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.lock.LockFacade;
import org.rouse.benchmarks.scenario.IsolatedClasses;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Variant;

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

    private static Class<?> loaded(Class<?> c, ClassLoader loader) throws ClassNotFoundException {
        return Class.forName(c.getName(), false, loader);
    }
}
