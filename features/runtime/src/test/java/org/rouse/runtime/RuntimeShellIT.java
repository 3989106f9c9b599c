package org.rouse.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code rouse} shell commands in the shipped runtime, typed into its Gogo shell as an operator would: the reports
 * appear, a bad argument gets a usage message, and {@code rouse:strategy} persists through ConfigAdmin into the
 * {@code conf/} file FileInstall read.
 */
@Timeout(value = 180, unit = java.util.concurrent.TimeUnit.SECONDS)
class RuntimeShellIT {

    @TempDir
    Path temp;

    @Test
    void theRouseCommandsPrintTheirReportsAndAStrategyChangeIsWrittenToItsConfigFile() throws Exception {
        Path built = Path.of(System.getProperty("rouse.runtime.jar", "target/rouse-runtime.jar"));
        assertTrue(Files.isRegularFile(built), "runtime jar not built: " + built.toAbsolutePath());
        Path home = Files.createDirectories(temp.resolve("home"));
        Path runtimeJar = Files.copy(built, home.resolve("rouse-runtime.jar"));
        Path conf = Files.createDirectories(temp.resolve("conf"));
        Files.writeString(conf.resolve("org.rouse.examples.resp.cfg"), "port = 0\n");
        Files.writeString(conf.resolve("org.rouse.examples.scripts.cfg"), "scripts = 3\nreport.interval.s = 3600\n");
        Path lockCfg = conf.resolve("org.rouse.lock.cfg");
        Files.writeString(lockCfg, "strategy = adaptive\n");

        try (ForkedRuntime runtime = new ForkedRuntime(runtimeJar, "--conf=" + conf, "--no-web")) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> runtime.shell("rouse:timers").contains("org.rouse.examples.scripts"));
            assertTrue(runtime.shell("rouse:selector").contains("view org.rouse.examples.resp"), runtime.output());
            String connections = runtime.shell("rouse:connections");
            assertTrue(
                    connections.matches("(?s).*org\\.rouse\\.examples\\.resp\\[\\d+\\]\\s+0\\s+1\\s+0.*"), connections);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> runtime.shell("rouse:late 5").contains("org.rouse.examples.scripts"));

            String help = runtime.shell("help rouse:late");
            assertTrue(help.contains("timer owners whose handlers started latest after their deadline"), help);

            String top = runtime.shell("rouse:locks top");
            assertTrue(top.contains("'top'") && top.contains("usage: rouse:locks [n | reset]"), top);
            assertFalse(top.contains("Cannot coerce"), top);

            String set = runtime.shell("rouse:strategy fair");
            assertTrue(set.contains("org.rouse.lock: strategy = fair (was adaptive)"), set);
            await().atMost(Duration.ofSeconds(30)).until(() -> read(lockCfg).matches("(?s).*strategy\\s*=\\s*fair.*"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> runtime.shell("rouse:strategy").contains("default strategy fair"));
            String bad = runtime.shell("rouse:strategy fast");
            assertTrue(bad.contains("unknown strategy 'fast'") && bad.contains("adaptive, fair, jdk, spin-yield"), bad);
            assertEquals(0, runtime.stop());
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file);
    }
}
