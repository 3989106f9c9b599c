package org.rouse.benchmarks.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.Variant;

class SelectorSequentialTest {

    @Test
    @Timeout(90)
    void quickRunWritesARowPerVariantAndLeavesNoThreadBehind(@TempDir Path dir) throws Exception {
        QuickRun run = QuickRun.of(new SelectorSequential(1), dir);

        assertEquals(
                13,
                run.variants.size(),
                "every server, the omniORB bug, two watch periods, growing at once, the hand-over before each upcall,"
                        + " no loop hand-over and watching after every upcall, at one connection");
        for (Variant variant : run.variants) {
            boolean rouse = variant.name().startsWith("Rouse");
            assertTrue(run.number(variant.name(), "calls_per_s") > 0, variant.name() + " made calls");
            assertEquals(
                    rouse,
                    !run.cell(variant.name(), "wakeups_per_call").isEmpty(),
                    "wakeups per call are counted for Rouse, and only there: " + variant.name());
            assertEquals(
                    rouse,
                    !run.cell(variant.name(), "wakeups_per_select_cycle").isEmpty(),
                    "wakeups per select cycle too: " + variant.name());
        }
        assertTrue(run.table.contains("p99 ÷ " + ServerSetup.BLOCKING), "p99 compared with the blocking server");

        QuickRun.awaitNoScenarioThreads();
    }

    @Test
    void theEngineOptionVariantsRunWhereTheyMeanSomething(@TempDir Path dir) {
        List<String> one = names(new SelectorSequential(1).variants(new Options(false, dir)));
        List<String> many = names(new SelectorSequential(16).variants(new Options(false, dir)));

        assertTrue(one.contains("Rouse, pool, watch 100 µs") && many.contains("Rouse, pool, watch 100 µs"));
        assertTrue(many.contains("Rouse, pool, 2 loops") && !one.contains("Rouse, pool, 2 loops"), "2 loops: " + one);
        assertEquals(
                names(new SelectorSequential(16).variants(new Options(false, dir))),
                names(new SelectorSequential(256).variants(new Options(false, dir))));
    }

    private static List<String> names(List<Variant> variants) {
        return variants.stream().map(Variant::name).toList();
    }
}
