package org.rouse.cluster.internal;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.rouse.lock.FencedLock;
import org.rouse.lock.FencedReadWriteLock;
import org.rouse.lock.spi.ClusterLockProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster locks on one Curator client: {@link ZkLock}s over Curator's {@code InterProcessMutex} at
 * {@code /locks/<name>} and {@link ZkReadWriteLock}s over {@code InterProcessReadWriteLock} at {@code /rwlocks/<name>}
 * (names URL-encoded into one path element), for the names matching the configured patterns.
 *
 * <pre>{@code
 * ZkLockProvider locks = new ZkLockProvider(client, settings);
 * FencedLock lock = locks.lock("cluster.billing");
 * }</pre>
 */
final class ZkLockProvider implements ClusterLockProvider, ConnectionStateListener {

    /*
     * Implementation notes.
     *
     * Invariants.
     * 1. The loss epoch counts SUSPENDED, LOST and READ_ONLY events and the provider's close. A hold is valid while the
     *    epoch is the one read before its acquisition started: a loss at any time after that, even one that raced
     *    with the grant, makes it invalid, and RECONNECTED never makes it valid again.
     * 2. After bumping the epoch, stateChanged tells every lock to report its holds lost; a hold granted with an older
     *    epoch but registered after that walk reports itself (ZkLock.granted re-reads the epoch), and each hold
     *    reports at most once.
     *
     * Costs. isValid() is two volatile reads; the connection listener walks every lock of this provider.
     */

    private static final Logger LOG = LoggerFactory.getLogger(ZkLockProvider.class);

    private final CuratorFramework client;
    private final ClusterSettings settings;
    /** Plain cluster locks by name; concurrent map, entries live as long as the provider. */
    private final ConcurrentHashMap<String, ZkLock> locks = new ConcurrentHashMap<>();
    /** Read-write cluster locks by name; concurrent map, entries live as long as the provider. */
    private final ConcurrentHashMap<String, ZkReadWriteLock> readWriteLocks = new ConcurrentHashMap<>();
    /** Loss epoch (invariant 1); incremented atomically by the connection listener and close(). */
    private final AtomicLong epoch = new AtomicLong();
    /** Set once by close(); volatile. */
    private volatile boolean closed;

    ZkLockProvider(CuratorFramework client, ClusterSettings settings) {
        this.client = client;
        this.settings = settings;
        client.getConnectionStateListenable().addListener(this);
    }

    @Override
    public boolean handles(String name) {
        return settings.isClusterLock(name);
    }

    @Override
    public FencedLock lock(String name) {
        checkHandled(name);
        return locks.computeIfAbsent(name, n -> ZkLock.mutex(this, n, "/locks/" + element(n)));
    }

    @Override
    public FencedReadWriteLock readWriteLock(String name) {
        checkHandled(name);
        return readWriteLocks.computeIfAbsent(
                name,
                n -> new ZkReadWriteLock(this, n, new InterProcessReadWriteLock(client, "/rwlocks/" + element(n))));
    }

    private void checkHandled(String name) {
        if (!handles(name)) {
            throw new IllegalArgumentException(
                    "'" + name + "' matches none of the cluster lock patterns " + settings.lockPatterns());
        }
    }

    /** One path element for a lock name: URL-encoded, and never "." or "..". */
    static String element(String name) {
        String encoded = URLEncoder.encode(name, StandardCharsets.UTF_8);
        return encoded.equals(".") || encoded.equals("..") ? encoded.replace(".", "%2E") : encoded;
    }

    @Override
    public void stateChanged(CuratorFramework source, ConnectionState state) {
        if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST || state == ConnectionState.READ_ONLY) {
            long now = epoch.incrementAndGet();
            LOG.warn("ZooKeeper connection {}: every cluster lock held by this node is invalid now", state);
            lost(now);
        } else if (state == ConnectionState.RECONNECTED) {
            LOG.info("ZooKeeper connection {}: held cluster locks stay invalid until unlocked", state);
        }
    }

    private void lost(long now) {
        for (ZkLock lock : locks.values()) {
            lock.reportLost(now);
        }
        for (ZkReadWriteLock lock : readWriteLocks.values()) {
            lock.readLock().reportLost(now);
            lock.writeLock().reportLost(now);
        }
    }

    /** The plain cluster locks this provider has handed out, by name. */
    java.util.Map<String, ZkLock> liveLocks() {
        return java.util.Collections.unmodifiableMap(locks);
    }

    /** The current loss epoch. */
    long epoch() {
        return epoch.get();
    }

    CuratorFramework client() {
        return client;
    }

    boolean isClosed() {
        return closed;
    }

    /** Invalidates every hold; later acquisitions throw {@link IllegalStateException}. */
    void close() {
        closed = true;
        client.getConnectionStateListenable().removeListener(this);
        lost(epoch.incrementAndGet());
    }

    @Override
    public String toString() {
        return "ZooKeeper cluster locks " + settings.lockPatterns() + " at "
                + ClusterSettings.redact(settings.connectString());
    }
}
