package org.rouse.benchmarks.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.Scenarios;
import org.rouse.benchmarks.scenario.Variant;

class SelectorThinkTimeTest {

    @Test
    @Timeout(90)
    void quickRunCountsThreadsForEveryVariantAndPoolThreadsForRouse(@TempDir Path dir) throws Exception {
        assertTrue(Scenarios.named("selector-think-60").isPresent(), "registered with the harness");

        QuickRun run = QuickRun.of(new SelectorThinkTime(16, 60), dir);

        assertEquals(12, run.variants.size(), "Rouse's eight variants and four baselines");
        for (Variant variant : run.variants) {
            String name = variant.name();
            boolean rouse = name.startsWith("Rouse");
            assertTrue(run.number(name, "calls_per_s") > 0, name + " made calls");
            assertTrue(run.number(name, "threads_started") >= 0, "threads started are counted for " + name);
            assertEquals(rouse, !run.cell(name, "wakeups_per_call").isEmpty(), "wakeups for Rouse only: " + name);
            assertEquals(
                    rouse, !run.cell(name, "pool_threads_created").isEmpty(), "pool threads for Rouse only: " + name);
            assertEquals(rouse, !run.cell(name, "pool_threads_retired").isEmpty(), "retired too: " + name);
        }
        assertTrue(run.table.contains("thinking 60 ms"), "the description states the think time");

        QuickRun.awaitNoScenarioThreads();
    }

    @Test
    @Timeout(60)
    void clientsThinkBetweenChains() throws Exception {
        long think = TimeUnit.MILLISECONDS.toNanos(50);
        long budget = TimeUnit.MILLISECONDS.toNanos(200);
        int connections = 4;
        try (EchoLoad load = EchoLoad.open(ServerSetup.blocking(), connections, think)) {
            EchoLoad.Round round = load.round(budget);

            // every chain starts before the deadline, and each one after a client's first waited a whole think
            long mostChains = connections * (budget / think + 1);
            assertTrue(round.calls().count() > 0, "the clients called");
            assertTrue(
                    round.calls().count() <= mostChains * EchoLoad.CHAIN,
                    "at most " + mostChains + " chains: " + round.calls().count() + " calls");
            assertEquals(0, round.calls().count() % EchoLoad.CHAIN, "whole chains only");
        }
        QuickRun.awaitNoScenarioThreads();
    }
}
