package org.rouse.runtime;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.startlevel.FrameworkStartLevel;

/**
 * Starts Felix with the embedded (or {@code --bundles}) jars, loads the configuration files, then either hands the
 * console to the Gogo shell or runs {@link Check}. The embedded jars are first extracted to a directory
 * ({@link BundleExtractor}) and installed from there, so that {@code update <id>} re-reads a bundle's file.
 *
 * <p>Implementation notes: start-up is staged by start level. The framework first rises to {@link #CONFIG_LEVEL}
 * (logging, ConfigAdmin, FileInstall, SCR, Gogo runtime are up; no Rouse bundle yet), the launcher waits until every
 * file of the conf directory is in ConfigAdmin, and only then raises the framework to {@link #FINAL_LEVEL}: the Rouse
 * components (level 5) therefore activate with their files' configuration, not with defaults first. The framework
 * storage is a fresh temporary directory, deleted on exit: every start installs the jars the bundle directory holds
 * then, so a jar an operator replaced there stays in force after a restart.
 */
final class Launcher {

    /** Where the embedded bundle jars are extracted, beside the runtime jar, unless {@code --extract} says otherwise. */
    static final String DEFAULT_EXTRACT_DIR = "rouse-bundles";

    /** The level at which all infrastructure runs and no Rouse bundle does yet. */
    static final int CONFIG_LEVEL = 4;

    static final int FINAL_LEVEL = 10;

    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long CONFIG_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final Main.LaunchOptions options;

    Launcher(Main.LaunchOptions options) {
        this.options = options;
    }

    int run() throws Exception {
        List<Path> temporary = new ArrayList<>();
        try {
            Path bundles = bundleDirectory(temporary);
            Path storage = Files.createTempDirectory("rouse-felix-");
            temporary.add(storage);
            return runIn(storage, bundles);
        } finally {
            temporary.forEach(Launcher::deleteRecursively);
        }
    }

    /**
     * The directory the bundles are installed from: {@code --bundles=DIR}; else the embedded jars extracted to
     * {@code --extract=DIR} or to {@value #DEFAULT_EXTRACT_DIR} beside the runtime jar, or, when that default cannot
     * be written, to a temporary directory deleted on exit. Adds what it creates for this run only to
     * {@code temporary}.
     */
    private Path bundleDirectory(List<Path> temporary) throws IOException, URISyntaxException {
        if (options.bundleDir() != null) {
            return options.bundleDir();
        }
        Path self = Paths.get(
                Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(self)) { // running from target/classes (IDE, exec:java): the jars are files already
            return self.resolve("bundles");
        }
        if (options.extractDir() != null) {
            return extract(self, options.extractDir());
        }
        Path beside = self.toAbsolutePath().getParent().resolve(DEFAULT_EXTRACT_DIR);
        try {
            return extract(self, beside);
        } catch (IOException e) { // e.g. the runtime jar lies in a directory this user cannot write
            Path scratch = Files.createTempDirectory("rouse-bundles-");
            temporary.add(scratch);
            System.err.printf(
                    "[rouse] cannot extract the bundle jars to %s (%s); using %s, deleted on exit"
                            + " (--extract=DIR chooses a lasting directory)%n",
                    beside, e, scratch);
            return extract(self, scratch);
        }
    }

    private static Path extract(Path runtimeJar, Path dir) throws IOException {
        BundleExtractor.Result result = BundleExtractor.extract(runtimeJar, dir);
        System.out.printf(
                "[rouse] bundle jars in %s: %d extracted, %d refreshed from this runtime jar, %d unchanged,"
                        + " %d kept as they are%n",
                dir,
                result.written().size(),
                result.refreshed().size(),
                result.unchanged(),
                result.kept().size());
        for (String name : result.kept()) {
            System.out.printf(
                    "[rouse] kept %s as it is: changed since it was extracted, or not extracted by this runtime%n",
                    name);
        }
        for (String name : result.removed()) {
            System.out.printf(
                    "[rouse] removed %s: an earlier runtime jar extracted it, this one does not embed it%n", name);
        }
        return dir;
    }

    private int runIn(Path storage, Path bundleDir) throws Exception {
        Framework framework =
                ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(frameworkProperties(storage));
        framework.init();
        BundleContext ctx = framework.getBundleContext();
        StateChanges changes = new StateChanges();
        ctx.addFrameworkListener(changes);
        ctx.addBundleListener(changes);
        ctx.addServiceListener(changes);
        List<Bundle> installed = BundleInstaller.install(ctx, bundleDir);
        System.out.printf("[rouse] installed %d bundles%n", installed.size());

        Thread hook = new Thread(() -> stopQuietly(framework), "rouse-runtime-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            CountDownLatch started = new CountDownLatch(1);
            ctx.addFrameworkListener(event -> {
                if (event.getType() == FrameworkEvent.STARTED) {
                    started.countDown();
                }
            });
            framework.start();
            awaitLevel(started, CONFIG_LEVEL);
            List<String> configProblems = loadConfiguration(ctx, changes);
            Set<String> off = webConsole(ctx);
            raiseTo(framework, FINAL_LEVEL);
            if (options.check()) {
                boolean passed = Check.run(ctx, changes, configProblems, off, System.out);
                stopQuietly(framework);
                return passed ? 0 : 1;
            }
            FrameworkEvent stopped = framework.waitForStop(0);
            return stopped.getType() == FrameworkEvent.ERROR ? 1 : 0;
        } finally {
            stopQuietly(framework);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook is stopping the framework
            }
        }
    }

    /**
     * Decides whether the Web Console starts ({@link WebConsole#decide}), prints why, and when it does not, keeps its
     * server bundles from starting. Returns the symbolic names of the bundles left stopped on purpose.
     */
    private Set<String> webConsole(BundleContext ctx) throws BundleException {
        WebConsole.Decision decision =
                WebConsole.decide(options.web(), options.webHost(), options.webPort(), WebConsole.credentials(ctx));
        System.out.println(decision.line());
        if (decision.start()) {
            return Set.of();
        }
        for (Bundle bundle : ctx.getBundles()) {
            if (WebConsole.SERVER_BUNDLES.contains(bundle.getSymbolicName())) {
                bundle.stop(); // not started yet (start level 6); clears its autostart for this run's fresh cache
            }
        }
        return WebConsole.SERVER_BUNDLES;
    }

    private Map<String, String> frameworkProperties(Path storage) throws IOException {
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put(Constants.FRAMEWORK_BEGINNING_STARTLEVEL, Integer.toString(CONFIG_LEVEL));
        // without --conf FileInstall watches an empty directory rather than creating ./load
        Path watched = options.confDir() != null ? options.confDir() : Files.createDirectory(storage.resolve("conf"));
        putDefault(config, "felix.fileinstall.dir", watched.toString());
        putDefault(config, "felix.fileinstall.noInitialDelay", "true");
        putDefault(config, "felix.fileinstall.filter", ".*\\.(cfg|config)");
        // JFR events of bundles (the Rouse API's): on JDK 17 an instrumented event class links to a handler class JFR
        // generates in jdk.jfr.internal.handlers, a package no module exports (docs/observability.md)
        putDefault(config, Constants.FRAMEWORK_BOOTDELEGATION, "jdk.jfr.internal.handlers");
        // the Felix HTTP service (Jetty) reads its address from these framework properties
        config.put(WebConsole.HOST_PROPERTY, options.webHost());
        config.put(WebConsole.PORT_PROPERTY, Integer.toString(options.webPort()));
        if (options.check()) {
            // keep the Gogo shell off stdin, and from stopping the framework by itself
            config.put("gosh.args", "--nointeractive --noshutdown");
        }
        return config;
    }

    /** Sets a framework property unless the same system property overrides it (Felix falls back to those). */
    private static void putDefault(Map<String, String> config, String key, String value) {
        if (System.getProperty(key) == null) {
            config.put(key, value);
        }
    }

    private static void raiseTo(Framework framework, int level) throws InterruptedException {
        CountDownLatch reached = new CountDownLatch(1);
        framework.adapt(FrameworkStartLevel.class).setStartLevel(level, event -> reached.countDown());
        awaitLevel(reached, level);
    }

    private static void awaitLevel(CountDownLatch reached, int level) throws InterruptedException {
        if (!reached.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            System.err.println("[rouse] framework did not reach start level " + level + " in " + START_TIMEOUT_SECONDS
                    + " s; going on");
        }
    }

    /** Waits until FileInstall has put every conf file into ConfigAdmin; says which files never came. */
    private List<String> loadConfiguration(BundleContext ctx, StateChanges changes)
            throws IOException, InterruptedException {
        if (options.confDir() == null) {
            return List.of();
        }
        List<Path> files = ConfigFiles.list(options.confDir(), ctx.getProperty("felix.fileinstall.filter"));
        List<Path> missing = ConfigFiles.awaitLoaded(ctx, files, changes, CONFIG_TIMEOUT_NANOS);
        System.out.printf(
                "[rouse] configuration: %d of %d file(s) from %s in ConfigAdmin%n",
                files.size() - missing.size(), files.size(), options.confDir());
        List<String> problems = missing.stream()
                .map(file -> "configuration file not loaded (see FileInstall's message above): " + file)
                .toList();
        problems.forEach(problem -> System.err.println("[rouse] " + problem));
        return problems;
    }

    private static void stopQuietly(Framework framework) {
        try {
            if ((framework.getState() & (Bundle.ACTIVE | Bundle.STARTING)) != 0) {
                framework.stop();
            }
            framework.waitForStop(30_000);
        } catch (Exception e) {
            System.err.println("[rouse] error while stopping: " + e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("[rouse] could not delete " + dir + ": " + e);
        }
    }
}
