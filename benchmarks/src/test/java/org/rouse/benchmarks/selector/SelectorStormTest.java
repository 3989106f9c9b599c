package org.rouse.benchmarks.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.scenario.Variant;

class SelectorStormTest {

    @Test
    @Timeout(180)
    void quickRunServesEveryConnectionOfBothStormsOnEveryServer(@TempDir Path dir) throws Exception {
        QuickRun run = QuickRun.of(new SelectorStorm(), dir);

        assertEquals(
                6,
                run.variants.size(),
                "Rouse by default, without the loop hand-over and watching after every upcall, blocking, inline NIO,"
                        + " Netty");
        for (Variant variant : run.variants) {
            // a storm that lost a connection throws instead of reporting a time
            assertTrue(run.number(variant.name(), "sequential_ms") > 0, variant.name() + " sequential storm");
            assertTrue(run.number(variant.name(), "concurrent_ms") > 0, variant.name() + " concurrent storm");
            assertTrue(run.number(variant.name(), "sequential_slow") >= 0, variant.name() + " counts slow connects");
        }
        assertTrue(run.table.contains("Baseline: `" + ServerSetup.NETTY_OFFLOADED + "`"), "compared with Netty");

        QuickRun.awaitNoScenarioThreads();
    }
}
