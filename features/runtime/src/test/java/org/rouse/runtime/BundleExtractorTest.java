package org.rouse.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which jars an extraction writes, refreshes, keeps and removes; the runtime jars here are made up. */
class BundleExtractorTest {

    @TempDir
    Path temp;

    @Test
    void writesEveryEmbeddedJarUnderItsLevelAndRecordsItsHash() throws IOException {
        Path dir = temp.resolve("bundles");
        BundleExtractor.Result result = BundleExtractor.extract(
                runtimeJar("r1", Map.of("bundles/3/a.jar", "a1", "bundles/5/b.jar", "b1")), dir);

        assertEquals(List.of("3/a.jar", "5/b.jar"), result.written());
        assertEquals("a1", read(dir.resolve("3/a.jar")));
        assertEquals("b1", read(dir.resolve("5/b.jar")));
        assertEquals(
                BundleExtractor.sha256(dir.resolve("3/a.jar")) + "  3/a.jar\n"
                        + BundleExtractor.sha256(dir.resolve("5/b.jar")) + "  5/b.jar\n",
                read(dir.resolve(BundleExtractor.RECORD)));
        try (var files = Files.list(dir.resolve("5"))) {
            assertEquals(List.of(dir.resolve("5/b.jar")), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void aSecondStartOfTheSameRuntimeJarWritesNothing() throws IOException {
        Path jar = runtimeJar("r1", Map.of("bundles/5/b.jar", "b1"));
        Path dir = temp.resolve("bundles");
        BundleExtractor.extract(jar, dir);

        BundleExtractor.Result again = BundleExtractor.extract(jar, dir);

        assertEquals(1, again.unchanged());
        assertTrue(again.written().isEmpty()
                && again.refreshed().isEmpty()
                && again.kept().isEmpty());
    }

    @Test
    void aNewerRuntimeJarRefreshesTheCopiesNobodyChanged() throws IOException {
        Path dir = temp.resolve("bundles");
        BundleExtractor.extract(runtimeJar("r1", Map.of("bundles/5/b.jar", "b1")), dir);

        BundleExtractor.Result result = BundleExtractor.extract(runtimeJar("r2", Map.of("bundles/5/b.jar", "b2")), dir);

        assertEquals(List.of("5/b.jar"), result.refreshed());
        assertEquals("b2", read(dir.resolve("5/b.jar")));
    }

    @Test
    void aJarTheOperatorReplacedIsKeptByTheSameAndByANewerRuntimeJar() throws IOException {
        Path dir = temp.resolve("bundles");
        BundleExtractor.extract(runtimeJar("r1", Map.of("bundles/5/b.jar", "b1")), dir);
        Files.writeString(dir.resolve("5/b.jar"), "operator's b");

        BundleExtractor.Result same = BundleExtractor.extract(runtimeJar("r1", Map.of("bundles/5/b.jar", "b1")), dir);
        BundleExtractor.Result newer = BundleExtractor.extract(runtimeJar("r2", Map.of("bundles/5/b.jar", "b2")), dir);

        assertEquals(List.of("5/b.jar"), same.kept());
        assertEquals(List.of("5/b.jar"), newer.kept());
        assertEquals("operator's b", read(dir.resolve("5/b.jar")));
    }

    @Test
    void theOperatorGetsTheEmbeddedJarBackByDeletingTheirs() throws IOException {
        Path jar = runtimeJar("r1", Map.of("bundles/5/b.jar", "b1"));
        Path dir = temp.resolve("bundles");
        BundleExtractor.extract(jar, dir);
        Files.writeString(dir.resolve("5/b.jar"), "operator's b");
        BundleExtractor.extract(jar, dir);
        Files.delete(dir.resolve("5/b.jar"));

        BundleExtractor.Result result = BundleExtractor.extract(jar, dir);

        assertEquals(List.of("5/b.jar"), result.written());
        assertEquals("b1", read(dir.resolve("5/b.jar")));
    }

    @Test
    void aDirectoryWithoutRecordKeepsEveryJarThatDiffers() throws IOException {
        Path dir = temp.resolve("bundles");
        Files.createDirectories(dir.resolve("5"));
        Files.writeString(dir.resolve("5/b.jar"), "somebody's b");
        Files.writeString(dir.resolve("5/extra.jar"), "an added bundle");

        BundleExtractor.Result result = BundleExtractor.extract(runtimeJar("r1", Map.of("bundles/5/b.jar", "b1")), dir);

        assertEquals(List.of("5/b.jar"), result.kept());
        assertEquals("somebody's b", read(dir.resolve("5/b.jar")));
        assertEquals("an added bundle", read(dir.resolve("5/extra.jar")));
    }

    @Test
    void jarsANewerRuntimeNoLongerEmbedsAreRemovedUnlessChanged() throws IOException {
        Path dir = temp.resolve("bundles");
        BundleExtractor.extract(
                runtimeJar("r1", Map.of("bundles/5/b-1.jar", "b1", "bundles/5/c-1.jar", "c1", "bundles/5/d.jar", "d")),
                dir);
        Files.writeString(dir.resolve("5/c-1.jar"), "operator's c");

        BundleExtractor.Result result = BundleExtractor.extract(
                runtimeJar("r2", Map.of("bundles/5/b-2.jar", "b2", "bundles/5/c-2.jar", "c2", "bundles/5/d.jar", "d")),
                dir);

        assertEquals(List.of("5/b-1.jar"), result.removed());
        assertEquals(List.of("5/c-1.jar"), result.kept());
        assertFalse(Files.exists(dir.resolve("5/b-1.jar")));
        assertEquals("operator's c", read(dir.resolve("5/c-1.jar")));
        assertEquals(List.of("5/b-2.jar", "5/c-2.jar"), result.written());
        assertFalse(read(dir.resolve(BundleExtractor.RECORD)).contains("c-1.jar"), "no longer ours to remove");
    }

    @Test
    void onlyJarsUnderBundlesAreExtractedAndNoneOutsideTheDirectory() throws IOException {
        Path dir = temp.resolve("bundles");
        BundleExtractor.extract(runtimeJar("r1", Map.of("bundles/5/b.jar", "b1", "lib/other.jar", "x")), dir);
        assertFalse(Files.exists(dir.resolve("lib")));
        try (var files = Files.list(dir)) {
            assertEquals(
                    Set.of(dir.resolve("5"), dir.resolve(BundleExtractor.RECORD)), files.collect(Collectors.toSet()));
        }

        Path escaping = runtimeJar("r2", Map.of("bundles/../../evil.jar", "x"));
        assertThrows(IOException.class, () -> BundleExtractor.extract(escaping, temp.resolve("other")));
        assertFalse(Files.exists(temp.resolve("evil.jar")));
    }

    private Path runtimeJar(String name, Map<String, String> entries) throws IOException {
        Path jar = temp.resolve(name + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Map.Entry<String, String> e : new LinkedHashMap<>(entries).entrySet()) {
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file);
    }
}
