package org.rouse.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HarnessArgumentsTest {

    @Test
    void defaultsToFullRunsIntoTheResultsFolder() {
        HarnessArguments args = HarnessArguments.parse(List.of("wakeup-floor"));

        assertEquals(List.of("wakeup-floor"), args.scenarios());
        assertEquals(Path.of("benchmarks/results"), args.outputDirectory());
        assertEquals(
                "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness wakeup-floor",
                args.reproduce("wakeup-floor"));
    }

    @Test
    void theReproducingCommandKeepsQuickAndOut() {
        HarnessArguments args = HarnessArguments.parse(List.of("--quick", "a", "b", "--out", "/tmp/x"));

        assertEquals(List.of("a", "b"), args.scenarios());
        assertTrue(args.quick());
        assertEquals(
                "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness b --quick --out /tmp/x",
                args.reproduce("b"));
    }

    @Test
    void rejectsWhatMakesNoSense() {
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of()));
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("a", "--out")));
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("--fast", "a")));
    }
}
