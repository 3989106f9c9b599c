package org.rouse.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped runtime jar, started in its own JVM, hot-swaps each provider bundle the way an operator does: Gogo's
 * {@code update <id>} (which is {@code Bundle.update()}: re-read the bundle's location), after copying a new jar over
 * the bundle's file or not.
 */
@Timeout(value = 180, unit = java.util.concurrent.TimeUnit.SECONDS)
class RuntimeUpdateIT {

    private static final List<String> PROVIDERS = List.of("org.rouse.timer", "org.rouse.selector", "org.rouse.lock");
    private static final String REPLACED_HEADER = "Rouse-Test-Replaced";
    private static final Duration ACTIVATION = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    private Path runtimeJar;
    private Path conf;

    /** A copy of the built jar in its own directory, so its default bundle directory is the test's own. */
    @BeforeEach
    void copyRuntime() throws IOException {
        Path built = Path.of(System.getProperty("rouse.runtime.jar", "target/rouse-runtime.jar"));
        assertTrue(Files.isRegularFile(built), "runtime jar not built: " + built.toAbsolutePath());
        Path home = Files.createDirectories(temp.resolve("home"));
        runtimeJar = Files.copy(built, home.resolve("rouse-runtime.jar"));
        conf = Files.createDirectories(temp.resolve("conf"));
        // a free port instead of 6380, and one quiet script instead of 711 printing every second
        Files.writeString(conf.resolve("org.rouse.examples.resp.cfg"), "port = 0\n");
        Files.writeString(conf.resolve("org.rouse.examples.scripts.cfg"), "scripts = 1\nreport.interval.s = 3600\n");
    }

    @Test
    void updateRereadsEachProviderFromItsFileBesideTheRuntimeJar() throws Exception {
        try (ForkedRuntime runtime = new ForkedRuntime(runtimeJar, "--conf=" + conf, "--no-web")) {
            for (String provider : PROVIDERS) {
                long id = runtime.bundleId(provider);
                long before = Long.parseLong(runtime.bundleProperty(id, "lastModified"));

                String printed = runtime.shell("update " + id);

                assertUpdated(runtime, provider, id, printed);
                assertTrue(
                        Long.parseLong(runtime.bundleProperty(id, "lastModified")) > before,
                        provider + " was not updated: lastModified unchanged");
                String location = runtime.bundleProperty(id, "location");
                assertTrue(
                        location.startsWith("file:")
                                && Path.of(URI.create(location))
                                        .startsWith(runtimeJar.getParent().resolve(Launcher.DEFAULT_EXTRACT_DIR)),
                        provider + " installed from " + location);
            }
            assertEquals(0, runtime.stop());
        }
    }

    @Test
    void updateLoadsTheJarCopiedOverTheBundleFileAndARestartKeepsIt() throws Exception {
        Path bundles = temp.resolve("bundles");
        try (ForkedRuntime runtime =
                new ForkedRuntime(runtimeJar, "--conf=" + conf, "--extract=" + bundles, "--no-web")) {
            for (String provider : PROVIDERS) {
                long id = runtime.bundleId(provider);
                Path file = Path.of(URI.create(runtime.bundleProperty(id, "location")));
                assertTrue(file.startsWith(bundles), provider + " installed from " + file);
                assertFalse(runtime.shell("headers " + id).contains(REPLACED_HEADER));
                rewriteWithHeader(file, REPLACED_HEADER, "new-" + provider);

                String printed = runtime.shell("update " + id);

                assertUpdated(runtime, provider, id, printed);
                assertTrue(
                        runtime.shell("headers " + id).contains(REPLACED_HEADER + " = new-" + provider),
                        provider + " still runs the jar it was installed from");
            }
            assertEquals(0, runtime.stop());
        }

        try (ForkedRuntime restarted =
                new ForkedRuntime(runtimeJar, "--conf=" + conf, "--extract=" + bundles, "--no-web")) {
            for (String provider : PROVIDERS) {
                long id = restarted.bundleId(provider);
                assertTrue(
                        restarted.shell("headers " + id).contains(REPLACED_HEADER + " = new-" + provider),
                        provider + ": the restart put the embedded jar back over the operator's");
                await().atMost(ACTIVATION)
                        .untilAsserted(() -> assertAllActive(provider, restarted.componentStates(id)));
            }
            assertTrue(
                    restarted.output().contains("3 kept as they are"),
                    "the restart reports the operator's jars as kept");
            assertEquals(0, restarted.stop());
        }
    }

    private static void assertUpdated(ForkedRuntime runtime, String provider, long id, String printed) {
        assertFalse(printed.contains("Exception"), provider + ": update printed\n" + printed);
        assertFalse(printed.contains("ERROR"), provider + ": update printed\n" + printed);
        await().atMost(ACTIVATION).untilAsserted(() -> {
            assertEquals("Active", runtime.bundleState(id), provider + " state");
            assertAllActive(provider, runtime.componentStates(id));
        });
    }

    private static void assertAllActive(String provider, List<String> states) {
        assertFalse(states.isEmpty(), provider + " has no component instance");
        states.forEach(state -> assertEquals("ACTIVE", state, provider + " component state " + states));
    }

    /** Writes {@code jar} again, the same but for one more main manifest header: a different build of the bundle. */
    private static void rewriteWithHeader(Path jar, String header, String value) throws IOException {
        Path rewritten = Files.createTempFile(jar.getParent().getParent(), "rewritten", ".tmp");
        try (JarFile in = new JarFile(jar.toFile())) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().putValue(header, value);
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(rewritten), manifest)) {
                for (Enumeration<JarEntry> entries = in.entries(); entries.hasMoreElements(); ) {
                    JarEntry entry = entries.nextElement();
                    if (entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream data = in.getInputStream(entry)) {
                        data.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
        // as 'cp new.jar <file>' does: the same file, new content
        try (InputStream data = Files.newInputStream(rewritten);
                OutputStream file = Files.newOutputStream(jar)) {
            data.transferTo(file);
        }
        Files.delete(rewritten);
    }
}
