package org.rouse.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Copies the bundle jars embedded in the runtime jar under {@code bundles/} to a directory, so that the framework
 * installs them from {@code file:} locations it can read again: Gogo's {@code update <id>} (which is
 * {@link org.osgi.framework.Bundle#update()}) re-reads a bundle from its location, and a jar location inside another
 * jar has no URL handler.
 *
 * <p>The directory belongs to the operator: a jar they put over an extracted one is never overwritten. The rule, per
 * embedded jar {@code <level>/<name>.jar}:
 *
 * <ul>
 *   <li>missing in the directory: written;
 *   <li>byte for byte the embedded one: left alone;
 *   <li>the copy an earlier runtime jar extracted and nobody changed since (its SHA-256 is the one recorded in
 *       {@value #RECORD}): replaced by the embedded one, so a rebuilt or upgraded runtime runs its own bundles;
 *   <li>anything else (an operator's replacement, or a directory without a record): kept, and reported.
 * </ul>
 *
 * A jar that an earlier runtime jar extracted but this one does not embed (a bundle renamed with a new version) is
 * deleted if unchanged and kept otherwise. Jars the operator added are not touched.
 *
 * <p>Implementation notes: {@value #RECORD} is in {@code sha256sum} format ({@code <hex>  <level>/<name>.jar}), so
 * {@code sha256sum -c extracted.sha256} in the directory lists the jars an operator changed. Every file is written to
 * a temporary name and moved into place, so a runtime that starts meanwhile never installs half a jar.
 */
final class BundleExtractor {

    /** The file, in the extraction directory, that records the SHA-256 of every jar as it was extracted. */
    static final String RECORD = "extracted.sha256";

    private static final String PREFIX = "bundles/";

    private BundleExtractor() {}

    /**
     * What one extraction did, for the start-up log; paths are relative to the directory, e.g. {@code 5/x.jar}.
     *
     * @param written jars that were missing
     * @param refreshed unchanged copies of an earlier runtime jar's bundles, replaced by this jar's
     * @param unchanged jars already identical to the embedded ones
     * @param kept jars that differ from what this runtime extracted and were left as they are
     * @param removed unchanged copies of bundles this runtime jar no longer embeds, deleted
     */
    record Result(
            List<String> written, List<String> refreshed, int unchanged, List<String> kept, List<String> removed) {}

    static Result extract(Path runtimeJar, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> previous = readRecord(dir.resolve(RECORD));
        Map<String, String> record = new TreeMap<>();
        List<String> written = new ArrayList<>();
        List<String> refreshed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        int unchanged = 0;
        try (JarFile jar = new JarFile(runtimeJar.toFile())) {
            List<JarEntry> entries = jar.stream()
                    .filter(e -> !e.isDirectory()
                            && e.getName().startsWith(PREFIX)
                            && e.getName().endsWith(".jar"))
                    .sorted(Comparator.comparing(JarEntry::getName))
                    .toList();
            for (JarEntry entry : entries) {
                String name = entry.getName().substring(PREFIX.length());
                Path target = resolveInside(dir, name);
                String embedded;
                try (InputStream in = jar.getInputStream(entry)) {
                    embedded = sha256(in);
                }
                String onDisk = Files.isRegularFile(target) ? sha256(target) : null;
                String extractedBefore = previous.get(name);
                if (onDisk == null || (onDisk.equals(extractedBefore) && !onDisk.equals(embedded))) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        writeAtomically(target, in);
                    }
                    (onDisk == null ? written : refreshed).add(name);
                    record.put(name, embedded);
                } else if (onDisk.equals(embedded)) {
                    unchanged++;
                    record.put(name, embedded);
                } else {
                    kept.add(name);
                    if (extractedBefore != null) { // still ours to refresh if the operator puts it back
                        record.put(name, extractedBefore);
                    }
                }
            }
        }
        for (Map.Entry<String, String> old : previous.entrySet()) {
            if (record.containsKey(old.getKey())) {
                continue;
            }
            Path file = resolveInside(dir, old.getKey());
            if (!Files.isRegularFile(file)) {
                continue;
            }
            if (sha256(file).equals(old.getValue())) {
                Files.delete(file);
                removed.add(old.getKey());
            } else {
                kept.add(old.getKey());
            }
        }
        writeRecord(dir.resolve(RECORD), record);
        return new Result(written, refreshed, unchanged, kept, removed);
    }

    private static Path resolveInside(Path dir, String name) throws IOException {
        Path target = dir.resolve(name).normalize();
        if (!target.startsWith(dir.normalize())) {
            throw new IOException("bundle jar name leaves the directory: " + name);
        }
        return target;
    }

    private static void writeAtomically(Path target, InputStream in) throws IOException {
        Files.createDirectories(target.getParent());
        Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".part");
        try {
            Files.copy(in, temporary, StandardCopyOption.REPLACE_EXISTING);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static Map<String, String> readRecord(Path file) throws IOException {
        Map<String, String> record = new TreeMap<>();
        if (!Files.isRegularFile(file)) {
            return record;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int separator = line.indexOf("  ");
            if (separator > 0) {
                record.put(line.substring(separator + 2), line.substring(0, separator));
            }
        }
        return record;
    }

    private static void writeRecord(Path file, Map<String, String> record) throws IOException {
        Path temporary = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".part");
        try {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                for (Map.Entry<String, String> e : record.entrySet()) {
                    out.write((e.getValue() + "  " + e.getKey() + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return sha256(in);
        }
    }

    private static String sha256(InputStream in) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        try (DigestInputStream digesting = new DigestInputStream(in, digest)) {
            digesting.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
