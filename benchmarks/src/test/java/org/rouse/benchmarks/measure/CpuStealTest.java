package org.rouse.benchmarks.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CpuStealTest {

    @Test
    void theAggregateLineGivesStealAndTheTotalWithoutGuestTime() {
        CpuSteal.Sample sample = CpuSteal.parse("cpu  41226 0 12466 75554 179 0 93 5804 900 0");

        assertEquals(5804, sample.steal());
        assertEquals(41226 + 12466 + 75554 + 179 + 93 + 5804, sample.total());
    }

    @Test
    void stealIsItsShareOfTheTimeBetweenTwoSamples() {
        CpuSteal.Sample before = new CpuSteal.Sample(100, 10_000);
        CpuSteal.Sample after = new CpuSteal.Sample(130, 11_000);

        assertEquals(3.0, CpuSteal.percentBetween(before, after), 1e-9);
    }

    @Test
    void anUnreadableOrEmptyIntervalIsUnknown() {
        CpuSteal.Sample unreadable = CpuSteal.parse("intr 1 2 3");

        assertEquals(-1, unreadable.total());
        assertTrue(Double.isNaN(CpuSteal.percentBetween(unreadable, new CpuSteal.Sample(1, 10))));
        assertTrue(Double.isNaN(CpuSteal.percentBetween(new CpuSteal.Sample(1, 10), new CpuSteal.Sample(1, 10))));
    }

    @Test
    void onLinuxASampleReadsTheMachinesCounters() {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat here");

        CpuSteal.Sample sample = CpuSteal.sample();

        assertTrue(sample.total() > 0, "total " + sample.total());
        assertTrue(sample.steal() >= 0 && sample.steal() <= sample.total(), "steal " + sample.steal());
    }
}
