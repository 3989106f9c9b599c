package org.rouse.api.internal.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.rouse.api.internal.Arguments;
import org.rouse.lock.LockService;
import org.rouse.lock.LockStatistics;
import org.rouse.lock.LockStripes;
import org.rouse.lock.ReadWriteLockStripes;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.SwappableReadWriteLock;
import org.rouse.lock.spi.ClusterLockProvider;

/**
 * One consuming bundle's {@link LockService}: its own namespaces of named locks and stripe sets (plain and
 * read-write), plus access to the shared namespace. Names the cluster provider handles are looked up there instead
 * (not remembered here: the provider owns them, and a new provider gives new locks). {@link #release()} (called from {@code ungetService}) forgets everything the view made.
 *
 * <pre>{@code
 * BundleLockView view = core.newView("my.bundle");
 * SwappableLock lock = view.lock("sessions");
 * view.release(); // the bundle stopped
 * }</pre>
 */
public final class BundleLockView implements LockService {

    /** Refuses stripe sets that would only exhaust memory. */
    static final int MAX_STRIPES = 1 << 16;

    private final LockFrontCore core;
    private final String owner;
    /** Named locks of this bundle; concurrent map, cleared on release. */
    private final ConcurrentHashMap<String, LockFacade> locks = new ConcurrentHashMap<>();
    /** Stripe sets of this bundle; concurrent map, cleared on release. */
    private final ConcurrentHashMap<String, LockStripesImpl> stripes = new ConcurrentHashMap<>();
    /** Named read-write locks of this bundle; concurrent map, cleared on release. */
    private final ConcurrentHashMap<String, ReadWriteFacade> readWriteLocks = new ConcurrentHashMap<>();
    /** Read-write stripe sets of this bundle; concurrent map, cleared on release. */
    private final ConcurrentHashMap<String, ReadWriteStripesImpl> readWriteStripes = new ConcurrentHashMap<>();
    /** Anonymous locks still referenced by the consumer (weak); guarded by itself. */
    private final Map<LockFacade, Boolean> anonymous = new WeakHashMap<>();
    /** Set once by release(); volatile. */
    private volatile boolean released;

    BundleLockView(LockFrontCore core, String owner) {
        this.core = core;
        this.owner = owner;
    }

    @Override
    public SwappableLock newLock() {
        checkLive();
        String name = core.anonymousName();
        LockFacade lock = core.newFacade(name, name);
        synchronized (anonymous) {
            anonymous.put(lock, Boolean.TRUE);
        }
        checkLive();
        return lock;
    }

    @Override
    public SwappableLock lock(String name) {
        Arguments.name(name, "name");
        checkLive();
        ClusterLockProvider cluster = core.clusterFor(name);
        if (cluster != null) {
            return cluster.lock(name);
        }
        LockFacade lock = locks.computeIfAbsent(name, n -> core.newFacade(n, n));
        if (released) {
            locks.clear();
            checkLive();
        }
        return lock;
    }

    @Override
    public SwappableLock sharedLock(String name) {
        Arguments.name(name, "name");
        checkLive();
        ClusterLockProvider cluster = core.clusterFor(name);
        if (cluster != null) {
            return cluster.lock(name);
        }
        return core.sharedLock(name);
    }

    @Override
    public LockStripes stripes(String name, int count) {
        Arguments.name(name, "name");
        checkStripeCount(count);
        checkLive();
        LockStripesImpl set = stripes.computeIfAbsent(name, n -> LockStripesImpl.create(core, n, count));
        if (set.size() != count) {
            throw new IllegalArgumentException("count " + count + " differs from the " + set.size()
                    + " stripes of the existing set '" + name + "'");
        }
        if (released) {
            stripes.clear();
            checkLive();
        }
        return set;
    }

    @Override
    public SwappableReadWriteLock readWriteLock(String name) {
        Arguments.name(name, "name");
        checkLive();
        ClusterLockProvider cluster = core.clusterFor(name);
        if (cluster != null) {
            return cluster.readWriteLock(name);
        }
        ReadWriteFacade lock = readWriteLocks.computeIfAbsent(name, n -> core.newReadWriteFacade(n, n));
        if (released) {
            readWriteLocks.clear();
            checkLive();
        }
        return lock;
    }

    @Override
    public ReadWriteLockStripes readWriteStripes(String name, int count) {
        Arguments.name(name, "name");
        checkStripeCount(count);
        checkLive();
        ReadWriteStripesImpl set =
                readWriteStripes.computeIfAbsent(name, n -> ReadWriteStripesImpl.create(core, n, count));
        if (set.size() != count) {
            throw new IllegalArgumentException("count " + count + " differs from the " + set.size()
                    + " read-write stripes of the existing set '" + name + "'");
        }
        if (released) {
            readWriteStripes.clear();
            checkLive();
        }
        return set;
    }

    private static void checkStripeCount(int count) {
        if (count <= 0 || count > MAX_STRIPES) {
            throw new IllegalArgumentException("count must be in [1, " + MAX_STRIPES + "]: " + count);
        }
    }

    @Override
    public Set<String> strategies() {
        return core.strategies();
    }

    /** Sums the counters of this view's named locks, stripes and live anonymous locks (not shared locks). */
    @Override
    public LockStatistics statistics() {
        LockCounts sum = LockCounts.ZERO;
        for (LockFacade lock : locks.values()) {
            sum = sum.plus(lock.statistics());
        }
        for (LockStripesImpl set : stripes.values()) {
            for (int i = 0; i < set.size(); i++) {
                sum = sum.plus(set.at(i).statistics());
            }
        }
        for (LockFacade lock : anonymousLocks()) {
            sum = sum.plus(lock.statistics());
        }
        for (ReadWriteFacade lock : readWriteLocks.values()) {
            sum = sum.plus(lock.statistics());
        }
        for (ReadWriteStripesImpl set : readWriteStripes.values()) {
            for (int i = 0; i < set.size(); i++) {
                sum = sum.plus(set.facade(i).statistics());
            }
        }
        return sum;
    }

    /**
     * Forgets every lock and stripe set of this view, so nothing of the consumer stays reachable from the front;
     * later calls throw {@link IllegalStateException}. Locks the consumer still holds keep working.
     */
    public void release() {
        released = true;
        List<LockFacade> forgotten = new ArrayList<>(locks.values());
        for (LockStripesImpl set : stripes.values()) {
            for (int i = 0; i < set.size(); i++) {
                forgotten.add((LockFacade) set.at(i));
            }
        }
        forgotten.addAll(anonymousLocks());
        locks.clear();
        stripes.clear();
        synchronized (anonymous) {
            anonymous.clear();
        }
        core.forget(forgotten);
        List<ReadWriteFacade> forgottenReadWrite = new ArrayList<>(readWriteLocks.values());
        for (ReadWriteStripesImpl set : readWriteStripes.values()) {
            for (int i = 0; i < set.size(); i++) {
                forgottenReadWrite.add(set.facade(i));
            }
        }
        readWriteLocks.clear();
        readWriteStripes.clear();
        core.forgetReadWrite(forgottenReadWrite);
    }

    /** The bundle this view belongs to. */
    public String owner() {
        return owner;
    }

    /** How many names this view remembers (named locks and stripe sets, plain and read-write); for tests. */
    int rememberedNames() {
        return locks.size() + stripes.size() + readWriteLocks.size() + readWriteStripes.size();
    }

    private List<LockFacade> anonymousLocks() {
        synchronized (anonymous) {
            return new ArrayList<>(anonymous.keySet());
        }
    }

    private void checkLive() {
        if (released) {
            throw new IllegalStateException("The lock service view of " + owner + " has been released");
        }
    }

    @Override
    public String toString() {
        return "LockService[" + owner + ", engine " + core.engineName() + "]";
    }
}
