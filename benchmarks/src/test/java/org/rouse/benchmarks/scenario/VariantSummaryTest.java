package org.rouse.benchmarks.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rouse.benchmarks.measure.LatencyHistogram;

class VariantSummaryTest {

    private static Measurement round(double p50, long... latenciesNanos) {
        LatencyHistogram latency = new LatencyHistogram();
        for (long l : latenciesNanos) {
            latency.recordNanos(l);
        }
        return Measurement.builder().put(Metrics.P50_US, p50).latency(latency).build();
    }

    @Test
    void eachMetricIsTheMedianOverRounds() {
        VariantSummary odd = VariantSummary.of("v", "", List.of(round(9), round(1), round(5)));
        VariantSummary even = VariantSummary.of("v", "", List.of(round(9), round(1), round(5), round(3)));

        assertEquals(5, odd.value(Metrics.P50_US));
        assertEquals(4, even.value(Metrics.P50_US));
        assertEquals(3, odd.rounds());
    }

    @Test
    void aSummedCountIsTheSumOverRoundsSoOneRoundThatSawOneShows() {
        Metric violations = Metric.summedCount("violations", "violations, all rounds");
        List<Measurement> rounds = List.of(
                Measurement.builder().put(violations, 0).build(),
                Measurement.builder().put(violations, 1).build(),
                Measurement.builder().put(violations, 0).build(),
                Measurement.builder().put(violations, Double.NaN).build());

        VariantSummary s = VariantSummary.of("v", "", rounds);

        assertEquals(1, s.value(violations), "a median would say 0");
        assertEquals(List.of(0.0, 1.0, 0.0, Double.NaN), s.roundValues(violations));
    }

    @Test
    void unknownValuesAreLeftOutOfTheMedian() {
        VariantSummary s = VariantSummary.of("v", "", List.of(round(Double.NaN), round(2), round(4)));

        assertEquals(3, s.value(Metrics.P50_US));
        assertTrue(Double.isNaN(s.value(Metrics.P99_US)), "never measured");
    }

    @Test
    void latencySamplesOfAllRoundsAreMerged() {
        VariantSummary s = VariantSummary.of("v", "", List.of(round(1, 1_000, 2_000), round(1, 3_000_000)));

        assertEquals(3, s.latency().orElseThrow().count());
        assertEquals(3_000, s.latency().orElseThrow().maxMicros(), 3);
    }

    @Test
    void eachRoundsValueIsKeptInRoundOrder() {
        VariantSummary s = VariantSummary.of("v", "", List.of(round(9), round(Double.NaN), round(5)));

        List<Double> values = s.roundValues(Metrics.P50_US);

        assertEquals(3, values.size(), "an unmeasured round keeps its place");
        assertEquals(9, values.get(0));
        assertTrue(Double.isNaN(values.get(1)));
        assertEquals(5, values.get(2));
        assertTrue(s.roundValues(Metrics.P99_US).isEmpty(), "never measured");
    }

    @Test
    void needsAtLeastOneRound() {
        assertThrows(IllegalArgumentException.class, () -> VariantSummary.of("v", "", List.of()));
    }
}
