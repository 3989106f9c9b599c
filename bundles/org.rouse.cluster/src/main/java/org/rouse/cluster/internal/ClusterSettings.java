package org.rouse.cluster.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.rouse.config.ConfigCheck;
import org.rouse.config.Globs;

/**
 * A validated configuration of the cluster bundle. {@link #toString()} never shows the digest password, and the
 * connect string is shown with any {@code user:password@} part masked.
 *
 * <pre>{@code
 * ClusterSettings settings = ClusterSettings.of(check, "zk1:2181,zk2:2181", 15000, 10000, "rouse", "rouse:secret",
 *         new String[] {"cluster.*"});
 * if (check.passed() && settings.enabled()) { ... }
 * }</pre>
 */
record ClusterSettings(
        String connectString,
        int sessionTimeoutMs,
        int connectionTimeoutMs,
        String namespace,
        String aclDigest,
        List<String> lockPatterns,
        Pattern lockNames) {

    /** The configuration PID. */
    static final String PID = "org.rouse.cluster";

    static final int DEFAULT_SESSION_TIMEOUT_MS = 15_000;
    static final int DEFAULT_CONNECTION_TIMEOUT_MS = 10_000;
    static final String DEFAULT_NAMESPACE = "rouse";
    static final String DEFAULT_LOCK_PATTERN = "cluster.*";

    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9._\\-\\[\\]:]+");
    private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._\\-]+");

    /**
     * Validates one configuration; every problem goes to {@code check}. The result is meaningful only when
     * {@code check.passed()}.
     */
    static ClusterSettings of(
            ConfigCheck check,
            String connectString,
            int sessionTimeoutMs,
            int connectionTimeoutMs,
            String namespace,
            String aclDigest,
            String[] lockPatterns) {
        String connect = connectString == null ? "" : connectString.trim();
        if (!connect.isEmpty()) {
            String hosts = connect;
            int chroot = hosts.indexOf('/');
            if (chroot >= 0) {
                hosts = hosts.substring(0, chroot);
            }
            for (String hostPort : hosts.split(",", -1)) {
                if (!HOST_PORT.matcher(hostPort.trim()).matches()) {
                    check.problem("connect.string", redact(connect), "a list of host:port separated by commas");
                    break;
                }
            }
        }
        check.inRange("session.timeout.ms", sessionTimeoutMs, 1_000, 600_000);
        check.inRange("connection.timeout.ms", connectionTimeoutMs, 100, 600_000);
        String ns = namespace == null ? "" : namespace.trim();
        if (!NAMESPACE.matcher(ns).matches() || ns.equals(".") || ns.equals("..") || ns.equals("zookeeper")) {
            check.problem("namespace", ns, "one path element of letters, digits, '.', '_' or '-' (not 'zookeeper')");
        }
        String digest = aclDigest == null ? "" : aclDigest.trim();
        if (!digest.isEmpty()) {
            int colon = digest.indexOf(':');
            if (colon <= 0 || colon == digest.length() - 1) {
                // the value itself is never echoed: it holds a password
                check.problem("acl.digest", "(hidden)", "'user:password', both non-empty");
            }
        }
        List<String> patterns = new ArrayList<>();
        if (lockPatterns != null) {
            for (String pattern : lockPatterns) {
                String p = pattern == null ? "" : pattern.trim();
                if (!p.isEmpty()) {
                    patterns.add(p);
                }
            }
        }
        return new ClusterSettings(
                connect,
                sessionTimeoutMs,
                connectionTimeoutMs,
                ns,
                digest,
                List.copyOf(patterns),
                Globs.compileAny(patterns));
    }

    /** Whether a connect string is set: otherwise the bundle stays off. */
    boolean enabled() {
        return !connectString.isEmpty();
    }

    /** Whether {@code name} is a cluster lock name. */
    boolean isClusterLock(String name) {
        return lockNames.matcher(name).matches();
    }

    /** The digest credentials as bytes, or null when none are set. */
    byte[] digestBytes() {
        return aclDigest.isEmpty() ? null : aclDigest.getBytes(StandardCharsets.UTF_8);
    }

    /** The connect string with every {@code user:password@} (or {@code user@}) part replaced by {@code ***@}. */
    static String redact(String connectString) {
        return connectString == null ? null : connectString.replaceAll("[^,/@]+@", "***@");
    }

    @Override
    public String toString() {
        return "connect.string=" + redact(connectString) + ", session.timeout.ms=" + sessionTimeoutMs
                + ", connection.timeout.ms=" + connectionTimeoutMs + ", namespace=" + namespace + ", acl.digest="
                + (aclDigest.isEmpty()
                        ? "(none)"
                        : aclDigest.substring(0, Math.max(0, aclDigest.indexOf(':'))) + ":***")
                + ", lock.patterns=" + lockPatterns;
    }
}
