package org.rouse.runtime;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.osgi.framework.BundleContext;

/**
 * Knows which configuration files of the {@code --conf} directory FileInstall will load, and waits until all of them
 * are in ConfigAdmin.
 *
 * <p>Implementation notes: FileInstall records the file a configuration came from in the property
 * {@value #FILENAME_PROPERTY} (a {@code file:} URI). A file counts as loaded when some configuration carries its
 * path; ConfigAdmin is read through {@link ServiceReflection}. ConfigAdmin raises no framework event the launcher can
 * see without its API, so the wait re-reads at {@link #RECHECK_NANOS} or on any service event.
 */
final class ConfigFiles {

    static final String FILENAME_PROPERTY = "felix.fileinstall.filename";
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private ConfigFiles() {}

    /** The files in {@code dir} whose name matches FileInstall's {@code filter} regular expression. */
    static List<Path> list(Path dir, String filter) throws IOException {
        Pattern pattern = Pattern.compile(filter);
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> pattern.matcher(p.getFileName().toString()).matches())
                    .map(p -> p.toAbsolutePath().normalize())
                    .sorted()
                    .toList();
        }
    }

    /**
     * Waits until every file in {@code files} is in ConfigAdmin, or {@code timeoutNanos} passed.
     *
     * @return the files still missing (empty on success)
     */
    static List<Path> awaitLoaded(BundleContext ctx, List<Path> files, StateChanges changes, long timeoutNanos)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            long seen = changes.version();
            List<Path> missing = new ArrayList<>(files);
            missing.removeAll(loaded(ctx));
            long remaining = deadline - System.nanoTime();
            if (missing.isEmpty() || remaining <= 0) {
                return missing;
            }
            changes.awaitChangeAfter(seen, Math.min(remaining, RECHECK_NANOS));
        }
    }

    /** The files FileInstall has loaded into ConfigAdmin so far (empty while ConfigAdmin is not there). */
    static Set<Path> loaded(BundleContext ctx) {
        Set<Path> loaded = ServiceReflection.withService(ctx, "org.osgi.service.cm.ConfigurationAdmin", cm -> {
            Object[] configurations = (Object[]) cm.call("listConfigurations", "(" + FILENAME_PROPERTY + "=*)");
            Set<Path> paths = new HashSet<>();
            for (Object configuration : configurations == null ? new Object[0] : configurations) {
                Dictionary<?, ?> properties = (Dictionary<?, ?>)
                        cm.callOn(configuration, "org.osgi.service.cm.Configuration", "getProperties");
                Object file = properties == null ? null : properties.get(FILENAME_PROPERTY);
                if (file != null) {
                    paths.add(toPath(file.toString()));
                }
            }
            return paths;
        });
        return loaded == null ? Set.of() : loaded;
    }

    private static Path toPath(String file) {
        Path path = file.startsWith("file:") ? Paths.get(URI.create(file)) : Paths.get(file);
        return path.toAbsolutePath().normalize();
    }
}
