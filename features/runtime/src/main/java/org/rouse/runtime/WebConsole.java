package org.rouse.runtime;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Dictionary;
import java.util.Set;
import org.osgi.framework.BundleContext;

/**
 * The runtime's Apache Felix Web Console (Felix HTTP Jetty + Web Console 4, start level {@value #LEVEL}): where it
 * listens, and whether it may start at all.
 *
 * <p>It listens on {@value #DEFAULT_HOST}:{@value #DEFAULT_PORT} unless {@code --web-host} / {@code --web-port} (or
 * the system properties {@value #HOST_PROPERTY} / {@value #PORT_PROPERTY}) say otherwise; {@code --no-web} leaves it
 * off. The user and password are the Web Console's own: the {@value #PID} configuration ({@code username},
 * {@code password}, e.g. {@code conf/}{@value #PID}{@code .cfg}), else the framework (system) properties
 * {@code felix.webconsole.username} / {@code felix.webconsole.password}, else {@code admin} / {@code admin}. A password
 * may be given in the console's hashed form ({@code {sha-256}} followed by the Base64 SHA-256 of its UTF-8 bytes).
 *
 * <p><b>Rule:</b> on an address that is not loopback, the console starts only with a password other than the default
 * {@code admin}; otherwise neither Jetty nor the console is started and one line says why. The password is never
 * printed.
 */
final class WebConsole {

    /** The start level of the HTTP service, the Web Console and their libraries. */
    static final int LEVEL = 6;

    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8181;
    static final String HOST_PROPERTY = "org.apache.felix.http.host";
    static final String PORT_PROPERTY = "org.osgi.service.http.port";
    static final String PID = "org.apache.felix.webconsole.internal.servlet.OsgiManager";
    static final String ROOT = "/system/console";

    /** The bundles that open the port: not started when the console is off or refused. */
    static final Set<String> SERVER_BUNDLES = Set.of("org.apache.felix.http.jetty", "org.apache.felix.webconsole");

    private static final String DEFAULT_USER = "admin";
    private static final String DEFAULT_PASSWORD = "admin";
    private static final String SHA_256 = "{sha-256}";

    /** The user and password in force, and where they came from (for the log; never the password itself). */
    record Credentials(String username, String password, String source) {}

    /** Whether to start the console, and the one line that says so. */
    record Decision(boolean start, String line) {}

    private WebConsole() {}

    /**
     * Decides whether the console may start on {@code host}:{@code port} with {@code credentials}.
     *
     * @param enabled false for {@code --no-web}
     */
    static Decision decide(boolean enabled, String host, int port, Credentials credentials) {
        if (!enabled) {
            return new Decision(false, "[rouse] web console off (--no-web)");
        }
        String where = host + ":" + port;
        boolean loopback;
        try {
            loopback = InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return new Decision(false, "[rouse] web console NOT started: cannot resolve --web-host " + host);
        }
        if (!loopback && isDefaultPassword(credentials.password())) {
            return new Decision(
                    false,
                    "[rouse] web console NOT started: " + where + " is not a loopback address and the console"
                            + " password is the default 'admin'; set password in conf/" + PID + ".cfg (or"
                            + " -Dfelix.webconsole.password), or listen on 127.0.0.1");
        }
        return new Decision(
                true,
                "[rouse] web console: http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + ROOT
                        + "/rouse (user '" + credentials.username() + "', password from " + credentials.source()
                        + ")");
    }

    /** Whether {@code password} (plain or {@code {sha-256}}-hashed) is the Web Console's default, or empty. */
    static boolean isDefaultPassword(String password) {
        if (password == null || password.isEmpty()) {
            return true;
        }
        if (password.startsWith(SHA_256)) {
            return password.equals(SHA_256 + sha256(DEFAULT_PASSWORD));
        }
        return password.equals(DEFAULT_PASSWORD);
    }

    private static String sha256(String text) {
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    /**
     * The credentials the Web Console will use: its ConfigAdmin configuration (read through reflection, as the
     * launcher shares no ConfigAdmin class with the bundles), else the framework properties, else the defaults.
     */
    static Credentials credentials(BundleContext ctx) {
        Dictionary<?, ?> configured =
                ServiceReflection.withService(ctx, "org.osgi.service.cm.ConfigurationAdmin", cm -> {
                    Object[] found = (Object[]) cm.call("listConfigurations", "(service.pid=" + PID + ")");
                    if (found == null || found.length == 0) {
                        return null;
                    }
                    return (Dictionary<?, ?>) cm.callOn(found[0], "org.osgi.service.cm.Configuration", "getProperties");
                });
        String user = ctx.getProperty("felix.webconsole.username");
        String password = ctx.getProperty("felix.webconsole.password");
        String source = password == null ? "the default" : "-Dfelix.webconsole.password";
        if (configured != null) {
            Object u = configured.get("username");
            Object p = configured.get("password");
            if (u != null) {
                user = u.toString();
            }
            if (p != null) {
                password = p.toString();
                source = "configuration " + PID;
            }
        }
        return new Credentials(
                user == null ? DEFAULT_USER : user, password == null ? DEFAULT_PASSWORD : password, source);
    }
}
