package org.rouse.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class PreTouchedJvmTest {

    @Test
    void theChildGetsAFixedPreTouchedHeapBeforeThisJvmsOwnOptions() {
        List<String> command = PreTouchedJvm.command(List.of("lock-contention", "--quick"));

        int xms = command.indexOf("-Xms" + PreTouchedJvm.HEAP);
        int xmx = command.indexOf("-Xmx" + PreTouchedJvm.HEAP);
        int preTouch = command.indexOf("-XX:+AlwaysPreTouch");
        int child = command.indexOf("-D" + PreTouchedJvm.CHILD_PROPERTY + "=true");
        assertTrue(xms > 0 && xmx > 0 && preTouch > 0 && child > preTouch, command.toString());
        assertEquals(
                List.of(Harness.class.getName(), "lock-contention", "--quick"),
                command.subList(command.size() - 3, command.size()),
                "the harness and its arguments, unchanged");
    }

    @Test
    @Timeout(120)
    void theChildRunsTheScenarioOnAPreTouchedHeapAndSaysSo(@TempDir Path dir) throws Exception {
        Process child = new ProcessBuilder(
                        PreTouchedJvm.command(List.of("wakeup-floor", "--quick", "--out", dir.toString())))
                .redirectErrorStream(true)
                .start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertEquals(0, child.waitFor(), output);
        String report = Files.readString(dir.resolve("wakeup-floor.md"));
        assertTrue(report.contains("heap 2048 MiB, pre-touched"), report);
    }
}
