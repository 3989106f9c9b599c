package org.rouse.benchmarks.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.Scenarios;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.RoundPlan;
import org.rouse.benchmarks.scenario.Variant;

class SelectorBurstsTest {

    @Test
    @Timeout(120)
    void quickRunCountsThreadsPerBurst(@TempDir Path dir) throws Exception {
        assertTrue(Scenarios.named("selector-bursts").isPresent(), "registered with the harness");

        QuickRun run = QuickRun.of(new SelectorBursts(), dir);

        assertEquals(6, run.variants.size());
        for (Variant variant : run.variants) {
            String name = variant.name();
            assertTrue(run.number(name, "calls_per_s") > 0, name + " made calls in the later bursts");
            double firstBurst = run.number(name, "threads_started_burst1");
            assertTrue(run.number(name, "threads_started_per_later_burst") >= 0, name);
            assertTrue(run.number(name, "p99_first_100ms_later_us") > 0, "calls in the first 100 ms: " + name);
            if (name.startsWith("Rouse")) {
                double created = run.number(name, "pool_threads_created_burst1");
                assertTrue(
                        firstBurst >= created,
                        "the JVM started at least the pool's threads: " + firstBurst + " vs " + created);
                assertTrue(run.number(name, "pool_threads_retired_per_later_burst") >= 0, name);
            } else {
                assertEquals("", run.cell(name, "pool_threads_created_burst1"), "no pool counters: " + name);
            }
        }
        assertTrue(run.table.contains(SelectorBursts.ROUSE_OMNIORB_IDLE), "omniORB's idle timeout compared");

        QuickRun.awaitNoScenarioThreads();
    }

    @Test
    @Timeout(60)
    void poolThreadsThatIdleLongerThanTheTimeoutAreCreatedAgainInTheNextBurst() throws Exception {
        // omniORB's case scaled down: a 1 s idle timeout and 2.5 s gaps (generous: the timeout is not what is tested)
        BurstVariant.Plan plan = new BurstVariant.Plan(3, Duration.ofMillis(200), Duration.ofMillis(2_500));
        ServerSetup shortIdle = ServerSetup.rouse(
                "Rouse, idle timeout 1 s",
                "pool threads end after 1 s idle",
                // growing at once: with the 2 ms grace a 200 ms burst may be served by the core threads alone; the
                // take-over off: with it the loop thread runs the calls and the pool stays at its core threads
                ServerSetup.POOL_PATH.withIdleTimeoutSeconds(1).withGrowAfterMicros(0));
        Measurement m;
        try (BurstVariant variant = new BurstVariant(shortIdle, SelectorBursts.CONNECTIONS, plan)) {
            variant.open();
            m = variant.runRound(plan.total());
        }

        double firstBurst = m.value(SelectorMetrics.POOL_THREADS_CREATED_FIRST_BURST);
        assertTrue(firstBurst > 2, "64 busy connections grow the pool beyond its 2 core threads: " + firstBurst);
        assertTrue(m.value(SelectorMetrics.POOL_THREADS_RETIRED_LATER_BURST) > 0, "idle workers ended in the gaps");
        assertTrue(
                m.value(SelectorMetrics.POOL_THREADS_CREATED_LATER_BURST) > 0, "and the next burst started new ones");
        assertTrue(
                m.value(SelectorMetrics.THREADS_STARTED_LATER_BURST)
                        >= m.value(SelectorMetrics.POOL_THREADS_CREATED_LATER_BURST),
                "the JVM counted them too");
        QuickRun.awaitNoScenarioThreads();
    }

    @Test
    void fullRunKeepsFifteenSecondGapsAndFitsInSixMinutes(@TempDir Path dir) {
        SelectorBursts bursts = new SelectorBursts();
        Options full = new Options(false, dir);
        RoundPlan plan = bursts.plan(full);

        assertEquals(0, plan.warmupRounds(), "a variant's bursts are one round: no other variant runs in its gaps");
        assertEquals(1, plan.measuredRounds());
        assertEquals(Duration.ofSeconds(4 + 3 * 15), plan.roundDuration(), "4 bursts of 1 s, 15 s apart");
        Duration total = plan.roundDuration().multipliedBy(bursts.variants(full).size());
        assertTrue(total.compareTo(Duration.ofMinutes(6)) < 0, "the full run takes " + total);
        assertTrue(bursts.description().contains("idle for exactly 15 s"), bursts.description());
    }
}
