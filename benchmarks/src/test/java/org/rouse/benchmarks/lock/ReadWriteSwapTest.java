package org.rouse.benchmarks.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.Scenarios;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.Variant;

@Timeout(60)
class ReadWriteSwapTest {

    @Test
    void aLockSwappedEvery10MillisecondsSwapsAndNeverHasAWriterWithAnyone() throws Exception {
        try (Variant variant = ReadWriteSwap.swapped("adaptive ↔ jdk", "adaptive", "jdk")) {
            variant.open();
            Measurement round = variant.runRound(Duration.ofMillis(300));

            assertTrue(round.value(LockMetrics.SWAPS) >= 5, "swaps performed: " + round.values());
            assertTrue(round.value(LockMetrics.THROUGHPUT) > 0, "operations counted: " + round.values());
            assertEquals(0.0, round.value(LockMetrics.VIOLATIONS), "no writer together with anyone");
        }
    }

    @Test
    void theReferenceRowNeverSwaps() throws Exception {
        try (Variant variant = ReadWriteSwap.swapped(ReadWriteSwap.BASELINE, "adaptive")) {
            variant.open();
            Measurement round = variant.runRound(Duration.ofMillis(100));

            assertEquals(0.0, round.value(LockMetrics.SWAPS), "swaps: " + round.values());
            assertEquals(0.0, round.value(LockMetrics.VIOLATIONS));
        }
    }

    @Test
    void theHarnessKnowsTheScenarioAndItsBaselineRow(@TempDir Path dir) throws Exception {
        Scenario scenario = Scenarios.named("rw-swap").orElseThrow();
        List<Variant> variants = scenario.variants(new Options(true, dir));
        try {
            List<String> names = new ArrayList<>();
            variants.forEach(v -> names.add(v.name()));
            assertEquals(List.of(ReadWriteSwap.BASELINE, "adaptive ↔ jdk"), names);
            assertEquals(ReadWriteSwap.BASELINE, scenario.layout().baselineVariant());
        } finally {
            for (Variant v : variants) {
                v.close();
            }
        }
    }
}
