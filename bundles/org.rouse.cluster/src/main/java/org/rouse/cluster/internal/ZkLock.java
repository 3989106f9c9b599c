package org.rouse.cluster.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.LockInternalsDriver;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.rouse.lock.FencedLock;
import org.rouse.lock.LockStatistics;
import org.rouse.stats.Percentiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster lock (or one side of a cluster read-write lock) over a Curator {@link InterProcessMutex}: reentrant
 * per thread, with a fencing token per grant and a validity that a lost connection ends.
 *
 * <pre>{@code
 * FencedLock lock = provider.lock("cluster.billing");
 * lock.lock();
 * try {
 *     store.write(lock.fencingToken(), value);
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 */
final class ZkLock implements FencedLock {

    /*
     * Implementation notes.
     *
     * Sources: Apache Curator, InterProcessMutex and LockInternals (an EPHEMERAL_SEQUENTIAL node per waiter under the
     * lock's path; the lowest sequence holds; a reader of InterProcessReadWriteLock waits only for lower write nodes);
     * ZooKeeper Programmer's Guide, "ZooKeeper Stat Structure" (czxid: the zxid of the change that created the node)
     * and "Time in ZooKeeper" (every change gets a zxid; zxids are totally ordered and grow, across leader elections
     * too, since the high 32 bits are the leader's epoch); M. Kleppmann, "How to do distributed locking" (2016),
     * fencing tokens.
     *
     * Fencing token = the czxid of the holder's own lock node: for a mutex, captured from the create's own Stat (the
     * lock driver creates the node with storingStatIn), so no extra round trip; for read-write locks (whose drivers
     * are Curator's own), and after a protected create recovered from a connection loss, read with one exists(). Why it grows
     * with every grant: a writer (or a mutex holder) is granted only once every node created before its own is gone,
     * and every later grant, of either kind, goes to a node that did not exist then (an earlier node would still block
     * the writer), so to a node created later, with a larger zxid. The sequence suffix of the node's name is not used:
     * it counts per parent, and Curator makes the lock's parent a container node that the server deletes once empty,
     * so the suffix starts again at 0 when the parent is re-created. A counter znode bumped by each holder would also
     * grow, but costs a quorum write per acquisition; exists() is answered by the connected server alone (it sees its
     * own session's create, so the node is there). Readers holding together may have tokens in any order among
     * themselves; they are ordered against writers only.
     *
     * Layout. holds maps each holding thread to its Hold (for a mutex at most one thread of this process; for the
     * read side of a read-write lock several). A Hold's count is touched only by its thread.
     *
     * Invariants. valid(hold) == (hold.epoch == provider.epoch()): see ZkLockProvider. A hold's loss is reported at
     * most once (Hold.reported).
     *
     * Costs. An outermost acquisition: Curator's create + getChildren (+ a watch when contended), and for read-write
     * locks one exists();
     * a reentrant one: a map look-up. isValid(): a map look-up and a volatile read.
     */

    private static final Logger LOG = LoggerFactory.getLogger(ZkLock.class);

    private final ZkLockProvider provider;
    private final String name;
    private final String kind;
    private final InterProcessMutex mutex;
    private final Supplier<String> lockPath;
    /** The czxid the calling thread's lock node was created with, if the driver captured it (else 0). */
    private final ToLongFunction<String> createdCzxid;
    /** Holding threads of this process; concurrent map, a thread adds and removes only its own entry. */
    private final ConcurrentHashMap<Thread, Hold> holds = new ConcurrentHashMap<>();
    /** Loss listeners; copy-on-write list. */
    private final CopyOnWriteArrayList<LossListener> listeners = new CopyOnWriteArrayList<>();
    /** Outermost grants; a LongAdder. */
    private final LongAdder acquisitions = new LongAdder();
    /** tryLock() calls and timed tryLock() first tries that found the lock taken; a LongAdder. */
    private final LongAdder contended = new LongAdder();
    /** Holds reported lost; a LongAdder. */
    private final LongAdder losses = new LongAdder();

    ZkLock(
            ZkLockProvider provider,
            String name,
            String kind,
            InterProcessMutex mutex,
            Supplier<String> lockPath,
            ToLongFunction<String> createdCzxid) {
        this.provider = provider;
        this.name = name;
        this.kind = kind;
        this.mutex = mutex;
        this.lockPath = lockPath;
        this.createdCzxid = createdCzxid;
    }

    /** A plain cluster mutex at {@code path}. */
    static ZkLock mutex(ZkLockProvider provider, String name, String path) {
        StatDriver driver = new StatDriver();
        PathMutex mutex = new PathMutex(provider.client(), path, driver);
        return new ZkLock(provider, name, "cluster", mutex, mutex::path, driver::czxidOf);
    }

    /** Curator's mutex, with the path of the calling thread's own lock node exposed. */
    private static final class PathMutex extends InterProcessMutex {
        PathMutex(CuratorFramework client, String path, LockInternalsDriver driver) {
            super(client, path, driver);
        }

        String path() {
            return getLockPath();
        }
    }

    /**
     * Curator's standard driver, but the lock node's create also returns its Stat, so the fencing token needs no
     * extra read: the create that made the node is the one whose czxid is wanted.
     */
    private static final class StatDriver extends StandardLockInternalsDriver {
        /** The calling thread's last created lock node and its czxid; thread-confined. */
        private final ThreadLocal<Object[]> created = new ThreadLocal<>();

        @Override
        public String createsTheLock(CuratorFramework client, String path, byte[] lockNodeBytes) throws Exception {
            Stat stat = new Stat();
            String ours = lockNodeBytes == null
                    ? client.create()
                            .storingStatIn(stat)
                            .creatingParentContainersIfNeeded()
                            .withProtection()
                            .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                            .forPath(path)
                    : client.create()
                            .storingStatIn(stat)
                            .creatingParentContainersIfNeeded()
                            .withProtection()
                            .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                            .forPath(path, lockNodeBytes);
            created.set(new Object[] {ours, stat.getCzxid()});
            return ours;
        }

        /**
         * The czxid captured when the calling thread created {@code path}, or 0 (a protected create recovered after a
         * connection loss fills no Stat).
         */
        long czxidOf(String path) {
            Object[] last = created.get();
            created.remove();
            return last != null && last[0].equals(path) ? (Long) last[1] : 0;
        }
    }

    /** One thread's hold. */
    private static final class Hold {
        final Thread thread;
        final long token;
        final long epoch;
        /** Reentrant count; only the holding thread reads and writes it. */
        int count = 1;
        /** Whether the loss was reported; set once by CAS. */
        final AtomicBoolean reported = new AtomicBoolean();

        Hold(Thread thread, long token, long epoch) {
            this.thread = thread;
            this.token = token;
            this.epoch = epoch;
        }
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            for (; ; ) {
                try {
                    lockInterruptibly();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (reenter()) {
            return;
        }
        for (; ; ) {
            checkOpen();
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (attempt(-1, provider.epoch())) {
                return;
            }
            // a connection problem: wait for the connection and try again
            provider.client().blockUntilConnected(1, TimeUnit.SECONDS);
        }
    }

    @Override
    public boolean tryLock() {
        if (reenter()) {
            return true;
        }
        checkOpen();
        try {
            boolean got = attempt(0, provider.epoch());
            if (!got) {
                contended.increment();
            }
            return got;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (reenter()) {
            return true;
        }
        long deadline = System.nanoTime() + unit.toNanos(time);
        boolean first = true;
        for (; ; ) {
            checkOpen();
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long remaining = first ? 0 : deadline - System.nanoTime();
            if (remaining < 0) {
                return false;
            }
            if (attempt(remaining, provider.epoch())) {
                return true;
            }
            if (first) {
                contended.increment();
                first = false;
            } else if (deadline - System.nanoTime() > 0) {
                provider.client()
                        .blockUntilConnected(
                                (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())),
                                TimeUnit.MILLISECONDS);
            }
        }
    }

    private boolean reenter() {
        Hold hold = holds.get(Thread.currentThread());
        if (hold != null) {
            hold.count++;
            return true;
        }
        return false;
    }

    /**
     * One acquisition through Curator: {@code waitNanos} 0 tries once, negative waits without bound. Returns whether
     * the lock was granted and its token read; a connection problem returns false (and is logged at DEBUG).
     */
    private boolean attempt(long waitNanos, long epoch) throws InterruptedException {
        boolean got;
        try {
            if (waitNanos < 0) {
                mutex.acquire();
                got = true;
            } else {
                got = mutex.acquire(waitNanos, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            if (Thread.currentThread().isInterrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedException("interrupted while acquiring cluster lock " + name);
            }
            LOG.debug("Acquiring cluster lock {} failed; retrying once connected", name, e);
            return false;
        }
        if (!got) {
            return false;
        }
        String path = lockPath.get();
        long token = path == null ? 0 : createdCzxid.applyAsLong(path);
        if (token <= 0) {
            try {
                Stat stat = provider.client().checkExists().forPath(path);
                token = stat == null ? -1 : stat.getCzxid();
            } catch (Exception e) {
                LOG.debug("Reading the fencing token of cluster lock {} failed", name, e);
                token = -1;
            }
        }
        if (token < 0) {
            // the node is gone (session lost) or unreadable: give the grant back and start again
            release();
            return false;
        }
        Hold hold = new Hold(Thread.currentThread(), token, epoch);
        holds.put(hold.thread, hold);
        acquisitions.increment();
        if (provider.epoch() != epoch) {
            report(hold); // a loss raced with the grant: the provider's walk may have missed this hold
        }
        return true;
    }

    @Override
    public void unlock() {
        Hold hold = holds.get(Thread.currentThread());
        if (hold == null) {
            throw new IllegalMonitorStateException(
                    Thread.currentThread().getName() + " does not hold cluster lock " + name);
        }
        if (--hold.count > 0) {
            return;
        }
        holds.remove(hold.thread);
        release();
    }

    private void release() {
        try {
            mutex.release();
        } catch (Exception e) {
            // the session is gone (its ephemeral node with it) or the delete is retried in the background by Curator
            LOG.debug("Releasing cluster lock {} failed", name, e);
        }
    }

    /** Reports every hold granted before epoch {@code now} as lost. */
    void reportLost(long now) {
        for (Hold hold : holds.values()) {
            if (hold.epoch < now) {
                report(hold);
            }
        }
    }

    private void report(Hold hold) {
        if (!hold.reported.compareAndSet(false, true)) {
            return;
        }
        losses.increment();
        for (LossListener listener : listeners) {
            try {
                listener.lost(this, hold.thread, hold.token);
            } catch (RuntimeException e) {
                LOG.error("A loss listener of cluster lock {} failed", name, e);
            }
        }
    }

    private void checkOpen() {
        if (provider.isClosed()) {
            throw new IllegalStateException("The cluster lock provider of " + name + " has been closed (cluster"
                    + " bundle stopped or reconfigured): look the lock up again");
        }
    }

    /** This process's holds for {@code rouse:cluster}: "thread T token N valid|invalid", one per holding thread. */
    java.util.List<String> describeHolds() {
        java.util.List<String> result = new java.util.ArrayList<>();
        long epoch = provider.epoch();
        for (Hold hold : holds.values()) {
            result.add("thread " + hold.thread.getName() + " token " + hold.token + " "
                    + (hold.epoch == epoch ? "valid" : "invalid"));
        }
        return result;
    }

    @Override
    public long fencingToken() {
        Hold hold = holds.get(Thread.currentThread());
        if (hold == null) {
            throw new IllegalMonitorStateException(
                    Thread.currentThread().getName() + " does not hold cluster lock " + name);
        }
        return hold.token;
    }

    @Override
    public boolean isValid() {
        Hold hold = holds.get(Thread.currentThread());
        return hold != null && hold.epoch == provider.epoch();
    }

    @Override
    public void addLossListener(LossListener listener) {
        if (listener == null) {
            throw new NullPointerException("listener");
        }
        listeners.add(listener);
    }

    @Override
    public void removeLossListener(LossListener listener) {
        listeners.remove(listener);
    }

    /** Cluster locks have no conditions: a waiter could not be signalled from another process. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("cluster lock " + name + " has no conditions");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String strategy() {
        return kind;
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return holds.containsKey(Thread.currentThread());
    }

    @Override
    public int holdCount() {
        Hold hold = holds.get(Thread.currentThread());
        return hold == null ? 0 : hold.count;
    }

    /** Whether a thread of this process holds the lock (other processes are not asked). */
    @Override
    public boolean isLocked() {
        return !holds.isEmpty();
    }

    /** Holds of this lock reported lost so far. */
    long losses() {
        return losses.sum();
    }

    @Override
    public LockStatistics statistics() {
        long acquired = acquisitions.sum();
        long waited = contended.sum();
        return new LockStatistics() {
            @Override
            public long acquisitions() {
                return acquired;
            }

            @Override
            public long contendedAcquisitions() {
                return waited;
            }

            @Override
            public long longestWaitNanos() {
                return 0;
            }

            @Override
            public long swaps() {
                return 0;
            }

            @Override
            public long spins() {
                return 0;
            }

            @Override
            public long parks() {
                return 0;
            }

            @Override
            public long handoffs() {
                return 0;
            }

            @Override
            public Percentiles waitNanos() {
                return Percentiles.EMPTY;
            }

            @Override
            public Percentiles holdNanos() {
                return Percentiles.EMPTY;
            }
        };
    }

    @Override
    public String toString() {
        return "FencedLock[" + name + ", " + kind + ", held here: " + !holds.isEmpty() + "]";
    }
}
