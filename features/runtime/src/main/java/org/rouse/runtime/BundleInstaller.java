package org.rouse.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.startlevel.BundleStartLevel;

/**
 * Installs the bundle jars found under {@code bundles/<startlevel>/} inside the launcher jar, or under
 * {@code <startlevel>/} of a directory, marks each one (but fragments) to start at its level, and returns them in
 * install order.
 *
 * <p>Implementation notes: jars are installed sorted by start level, then by path. Felix starts the bundles of one
 * level in install order, which is how ConfigAdmin ({@code org.apache.felix.configadmin-*}) comes up before FileInstall
 * ({@code org.apache.felix.fileinstall-*}). A jar directly in the directory (no level folder) gets
 * {@link #DEFAULT_START_LEVEL}.
 */
final class BundleInstaller {

    static final int DEFAULT_START_LEVEL = 5;

    private BundleInstaller() {}

    static List<Bundle> install(BundleContext ctx, Path bundleDir)
            throws IOException, BundleException, URISyntaxException {
        return bundleDir != null ? installFromDirectory(ctx, bundleDir) : installEmbedded(ctx);
    }

    private static List<Bundle> installEmbedded(BundleContext ctx)
            throws IOException, BundleException, URISyntaxException {
        Path self = Paths.get(
                Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(self)) { // running from target/classes (IDE, exec:java)
            return installFromDirectory(ctx, self.resolve("bundles"));
        }
        try (JarFile jar = new JarFile(self.toFile())) {
            List<String> names = jar.stream()
                    .map(JarEntry::getName)
                    .filter(n -> n.startsWith("bundles/") && n.endsWith(".jar"))
                    .sorted(Comparator.comparingInt(BundleInstaller::levelOf).thenComparing(Comparator.naturalOrder()))
                    .toList();
            List<Bundle> result = new ArrayList<>();
            for (String name : names) {
                try (InputStream in = jar.getInputStream(jar.getEntry(name))) {
                    result.add(install(ctx, "embedded:" + name, in, levelOf(name)));
                }
            }
            return result;
        }
    }

    private static List<Bundle> installFromDirectory(BundleContext ctx, Path dir) throws IOException, BundleException {
        List<Path> jars;
        try (Stream<Path> files = Files.walk(dir, 2)) {
            jars = files.filter(p -> p.toString().endsWith(".jar"))
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

    /** {@code "bundles/2/x.jar"} and {@code "2/x.jar"} give 2; {@code "x.jar"} gives the default level. */
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
