package org.rouse.api.internal.lock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.FencedLock;
import org.rouse.lock.FencedReadWriteLock;
import org.rouse.lock.SwappableLock;
import org.rouse.lock.spi.ClusterLockProvider;

/** The lock front routes the names a cluster provider handles to it, at look-up, and only while it is bound. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClusterRoutingTest {

    private final LockFrontCore core = new LockFrontCore();
    private final FencedLock clusterLock = proxy(FencedLock.class);
    private final FencedReadWriteLock clusterReadWrite = proxy(FencedReadWriteLock.class);

    private final ClusterLockProvider provider = new ClusterLockProvider() {
        @Override
        public boolean handles(String name) {
            return name.startsWith("cluster.");
        }

        @Override
        public FencedLock lock(String name) {
            return clusterLock;
        }

        @Override
        public FencedReadWriteLock readWriteLock(String name) {
            return clusterReadWrite;
        }
    };

    @Test
    void handledNamesGoToTheProviderOthersStayLocal() {
        BundleLockView view = core.newView("a.bundle");
        SwappableLock before = view.lock("cluster.billing");
        assertFalse(before instanceof FencedLock, "no provider: local");

        core.clusterLocks(provider);
        assertSame(clusterLock, view.lock("cluster.billing"));
        assertSame(clusterLock, view.sharedLock("cluster.billing"));
        assertSame(clusterReadWrite, view.readWriteLock("cluster.routes"));
        assertFalse(view.lock("keyspace") instanceof FencedLock);
        assertFalse(view.readWriteLock("routes") instanceof FencedReadWriteLock);
        assertFalse(view.stripes("cluster.stripes", 4).forKey("k") instanceof FencedLock, "stripes stay local");

        core.clusterLocksGone(provider);
        assertSame(before, view.lock("cluster.billing"), "the provider gone: the local lock again");
    }

    @Test
    void aReplacementBoundBeforeTheOldIsUnboundStays() {
        ClusterLockProvider replacement = new ClusterLockProvider() {
            @Override
            public boolean handles(String name) {
                return true;
            }

            @Override
            public FencedLock lock(String name) {
                return clusterLock;
            }

            @Override
            public FencedReadWriteLock readWriteLock(String name) {
                return clusterReadWrite;
            }
        };
        BundleLockView view = core.newView("a.bundle");
        core.clusterLocks(provider);
        core.clusterLocks(replacement); // DS: bind the better one first ...
        core.clusterLocksGone(provider); // ... then unbind the old one
        assertTrue(view.lock("anything") instanceof FencedLock);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, args) -> {
            if (method.getName().equals("toString")) {
                return type.getSimpleName();
            }
            if (method.getName().equals("hashCode")) {
                return System.identityHashCode(p);
            }
            if (method.getName().equals("equals")) {
                return p == args[0];
            }
            throw new UnsupportedOperationException(method.getName());
        });
    }
}
