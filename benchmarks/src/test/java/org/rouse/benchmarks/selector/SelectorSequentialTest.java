package org.rouse.benchmarks.selector;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rouse.benchmarks.Harness;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.Variant;

class SelectorSequentialTest {

    /** Name prefixes of the threads the scenario's clients, servers and engines start. */
    private static final List<String> SCENARIO_THREADS = List.of(
            "rouse-bench-selector-",
            "rouse-bench-nio-",
            "rouse-bench-blocking-",
            "rouse-bench-netty-",
            "rouse-selector-");

    @Test
    @Timeout(90)
    void quickRunWritesARowPerVariantAndLeavesNoThreadBehind(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Harness.run(
                List.of("selector-sequential-1", "--quick", "--out", dir.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        String table = Files.readString(dir.resolve("selector-sequential-1.md"));
        List<String> csv = Files.readAllLines(dir.resolve("selector-sequential-1.csv"));
        assertTrue(Files.size(dir.resolve("selector-sequential-1.png")) > 0);
        List<Variant> variants = new SelectorSequential(1).variants(new Options(true, dir));
        assertEquals(7, variants.size(), "every server, the omniORB bug included at one connection");
        assertEquals(variants.size() + 1, csv.size(), "header + one line per variant: " + csv);
        // the values after the variant column (names with commas are quoted, numbers never are)
        List<String> header =
                Arrays.asList(csv.get(0).split(",")).subList(1, csv.get(0).split(",").length);
        int calls = header.indexOf("calls_per_s");
        int wakeups = header.indexOf("wakeups_per_call");
        int perCycle = header.indexOf("wakeups_per_select_cycle");
        for (Variant variant : variants) {
            assertTrue(table.contains("\n| " + variant.name() + " | "), "a row for " + variant.name() + ":\n" + table);
            String name = variant.name().contains(",") ? '"' + variant.name() + '"' : variant.name();
            String[] line = csv.stream()
                    .filter(l -> l.startsWith(name + ","))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("a CSV line for " + variant.name()))
                    .substring(name.length() + 1)
                    .split(",", -1);
            assertTrue(Double.parseDouble(line[calls]) > 0, variant.name() + " made calls");
            assertEquals(
                    variant.name().startsWith("Rouse"),
                    !line[wakeups].isEmpty(),
                    "wakeups per call are counted for Rouse, and only there: " + variant.name());
            assertEquals(
                    variant.name().startsWith("Rouse"),
                    !line[perCycle].isEmpty(),
                    "wakeups per select cycle too: " + variant.name());
        }
        assertTrue(table.contains("p99 ÷ " + SelectorSequential.BLOCKING), "p99 compared with the blocking server");

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertFalse(
                        benchmarkThreadsAlive(), "servers, engines and clients are shut down: " + benchmarkThreads()));
    }

    private static boolean benchmarkThreadsAlive() {
        return !benchmarkThreads().isEmpty();
    }

    private static String benchmarkThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> SCENARIO_THREADS.stream().anyMatch(n::startsWith))
                .collect(Collectors.joining(", "));
    }
}
