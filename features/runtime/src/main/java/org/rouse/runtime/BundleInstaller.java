package org.rouse.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.startlevel.BundleStartLevel;

/**
 * Installs the bundle jars found under {@code <startlevel>/} of a directory from their {@code file:} URIs, marks each
 * one (but fragments) to start at its level, and returns them in install order. The location is the file, so
 * {@link Bundle#update()} (Gogo's {@code update <id>}) reads the jar that is in that file at that moment; the framework
 * copies it into its cache, so the file can be replaced at any time without disturbing the running bundle.
 *
 * <p>Implementation notes: jars are installed sorted by start level, then by path. Felix starts the bundles of one
 * level in install order, which is how ConfigAdmin ({@code org.apache.felix.configadmin-*}) comes up before FileInstall
 * ({@code org.apache.felix.fileinstall-*}). A jar directly in the directory (no level folder) gets
 * {@link #DEFAULT_START_LEVEL}.
 */
final class BundleInstaller {

    static final int DEFAULT_START_LEVEL = 5;

    private BundleInstaller() {}

    static List<Bundle> install(BundleContext ctx, Path dir) throws IOException, BundleException {
        List<Path> jars;
        try (Stream<Path> files = Files.walk(dir, 2)) {
            jars = files.filter(p -> p.toString().endsWith(".jar") && Files.isRegularFile(p))
                    .sorted(Comparator.comparingInt((Path p) -> levelOf(relative(dir, p)))
                            .thenComparing(Comparator.naturalOrder()))
                    .toList();
        }
        List<Bundle> result = new ArrayList<>();
        for (Path jar : jars) {
            try (InputStream in = Files.newInputStream(jar)) {
                result.add(install(ctx, jar.toUri().toString(), in, levelOf(relative(dir, jar))));
            }
        }
        return result;
    }

    private static Bundle install(BundleContext ctx, String location, InputStream in, int level)
            throws BundleException {
        Bundle bundle = ctx.installBundle(location, in);
        bundle.adapt(BundleStartLevel.class).setStartLevel(level);
        if (!isFragment(bundle)) {
            bundle.start(); // persistent: actually starts when the framework reaches 'level'
        }
        return bundle;
    }

    static boolean isFragment(Bundle bundle) {
        return bundle.getHeaders().get(Constants.FRAGMENT_HOST) != null;
    }

    private static String relative(Path dir, Path file) {
        return dir.relativize(file).toString().replace('\\', '/');
    }

    /** {@code "2/x.jar"} gives 2; {@code "x.jar"} gives the default level. */
    static int levelOf(String path) {
        String[] parts = path.split("/");
        String folder = parts.length >= 2 ? parts[parts.length - 2] : "";
        try {
            return Integer.parseInt(folder);
        } catch (NumberFormatException e) {
            return DEFAULT_START_LEVEL;
        }
    }
}
