package org.rouse.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Runs the Rouse distribution: Apache Felix, the OSGi services Rouse needs and the Rouse bundles, all from one jar.
 *
 * <pre>
 *   java -jar rouse-runtime.jar                   # Gogo shell on stdin; 'stop 0' (or end of input) exits with 0
 *   java -jar rouse-runtime.jar --check           # start, print bundle and component states, stop; 0 = all ACTIVE
 *   java -jar rouse-runtime.jar --conf=DIR        # load DIR/&lt;pid&gt;.cfg into ConfigAdmin (default: ./conf if present)
 *   java -jar rouse-runtime.jar --bundles=DIR     # run the jars in DIR/&lt;startlevel&gt;/ instead of the embedded ones
 *   java -jar rouse-runtime.jar --extract=DIR     # extract the embedded jars to DIR (default: rouse-bundles/ beside
 *                                                 # the runtime jar) and run them from there
 *   java -jar rouse-runtime.jar --web-port=N      # the Web Console's port (default 8181; 0 = any free port)
 *   java -jar rouse-runtime.jar --web-host=ADDR   # its address (default 127.0.0.1; a non-loopback one needs a
 *                                                 # password other than admin, see WebConsole)
 *   java -jar rouse-runtime.jar --no-web          # no HTTP server and no Web Console
 * </pre>
 *
 * <p>The bundles are installed from the files in that directory, so an operator swaps one by copying a new jar over
 * its file and typing {@code update <id>} in the shell. The extraction never overwrites a jar that differs from the one
 * this runtime extracted: see {@link BundleExtractor}.
 *
 * <p>Configuration files follow the Karaf convention and are watched by Apache Felix FileInstall, so edits apply while
 * the framework runs: {@code DIR/org.rouse.timer.engine.cfg} configures PID {@code org.rouse.timer.engine},
 * {@code DIR/<factoryPid>-<name>.cfg} creates a factory configuration. A {@code .cfg} file uses
 * {@link java.util.Properties} syntax and every value is a String: Declarative Services converts it to the type of the
 * component's configuration attribute ({@code "250"} becomes an {@code int}, {@code "true"} a {@code boolean}, a single
 * value becomes a one-element array). For typed or multi-valued properties use a {@code .config} file (Felix typed
 * syntax, e.g. {@code ports = I["7000","7001"]}). All files are in ConfigAdmin before the Rouse bundles start.
 *
 * <p>Framework and FileInstall properties can be overridden with system properties, e.g.
 * {@code -Dfelix.fileinstall.poll=500} or {@code -Dgosh.args=--nointeractive}.
 *
 * <p>Exit codes: 0 on a clean stop (or a passing {@code --check}), 1 when the check fails or the framework stops on an
 * error, 2 on bad arguments.
 */
public final class Main {

    private static final String USAGE =
            "usage: java -jar rouse-runtime.jar [--check] [--conf=DIR] [--bundles=DIR | --extract=DIR]"
                    + " [--web-port=N] [--web-host=ADDR] [--no-web]";

    private Main() {}

    /**
     * Parses the arguments, runs the framework and exits the VM with the launcher's exit code.
     *
     * @param args {@code --check}, {@code --conf=DIR}, {@code --bundles=DIR}, {@code --extract=DIR},
     *     {@code --web-port=N}, {@code --web-host=ADDR} or {@code --no-web}, in any order
     * @throws Exception if the framework cannot be created or started
     */
    public static void main(String[] args) throws Exception {
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(List.of(args), Paths.get(""));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        System.exit(new Launcher(options).run());
    }

    /** What the command line asked for. */
    record LaunchOptions(
            boolean check, Path confDir, Path bundleDir, Path extractDir, boolean web, String webHost, int webPort) {

        LaunchOptions(boolean check, Path confDir, Path bundleDir, Path extractDir) {
            this(check, confDir, bundleDir, extractDir, true, WebConsole.DEFAULT_HOST, WebConsole.DEFAULT_PORT);
        }

        static LaunchOptions parse(List<String> args, Path workingDir) {
            boolean check = false;
            Path conf = null;
            Path bundles = null;
            Path extract = null;
            boolean web = true;
            String webHost = System.getProperty(WebConsole.HOST_PROPERTY, WebConsole.DEFAULT_HOST);
            String webPort = System.getProperty(WebConsole.PORT_PROPERTY, Integer.toString(WebConsole.DEFAULT_PORT));
            for (String arg : args) {
                if (arg.equals("--check")) {
                    check = true;
                } else if (arg.equals("--no-web")) {
                    web = false;
                } else if (arg.startsWith("--web-host=")) {
                    webHost = arg.substring("--web-host=".length());
                    if (webHost.isBlank()) {
                        throw new IllegalArgumentException("--web-host: an address is needed");
                    }
                } else if (arg.startsWith("--web-port=")) {
                    webPort = arg.substring("--web-port=".length());
                } else if (arg.startsWith("--conf=")) {
                    conf = existingDirectory("--conf", arg.substring("--conf=".length()));
                } else if (arg.startsWith("--bundles=")) {
                    bundles = existingDirectory("--bundles", arg.substring("--bundles=".length()));
                } else if (arg.startsWith("--extract=")) {
                    extract = Paths.get(arg.substring("--extract=".length()))
                            .toAbsolutePath()
                            .normalize();
                    if (Files.exists(extract) && !Files.isDirectory(extract)) {
                        throw new IllegalArgumentException("--extract: not a directory: " + extract);
                    }
                } else {
                    throw new IllegalArgumentException("unknown argument: " + arg);
                }
            }
            if (conf == null && Files.isDirectory(workingDir.resolve("conf"))) {
                conf = workingDir.resolve("conf").toAbsolutePath();
            }
            if (bundles != null && extract != null) {
                throw new IllegalArgumentException(
                        "--bundles runs a directory as it is, --extract fills one: not both");
            }
            return new LaunchOptions(check, conf, bundles, extract, web, webHost, port(webPort));
        }

        private static int port(String value) {
            try {
                int port = Integer.parseInt(value.trim());
                if (port >= 0 && port <= 65_535) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(
                    "--web-port must be a whole number from 0 to 65535, not '" + value + "'");
        }

        private static Path existingDirectory(String flag, String value) {
            Path dir = Paths.get(value).toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException(flag + ": not a directory: " + dir);
            }
            return dir;
        }
    }
}
