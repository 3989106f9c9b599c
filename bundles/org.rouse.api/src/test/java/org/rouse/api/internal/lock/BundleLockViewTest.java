package org.rouse.api.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.lock.LockStripes;
import org.rouse.lock.SwappableLock;

/** Namespaces, stripes and clean-up of the bundle views (fallback primitive, no engine). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BundleLockViewTest {

    private final LockFrontCore core = new LockFrontCore();

    @Test
    void sameNameSameLockOtherBundleOtherLockSharedNamespaceSameLock() {
        BundleLockView a = core.newView("a.bundle");
        BundleLockView b = core.newView("b.bundle");
        assertSame(a.lock("orders"), a.lock("orders"));
        assertEquals("orders", a.lock("orders").name());
        assertNotSame(a.lock("orders"), b.lock("orders"));
        assertSame(a.sharedLock("orders"), b.sharedLock("orders"));
        assertNotSame(a.sharedLock("orders"), a.lock("orders"));
        assertNotSame(a.newLock(), a.newLock());
    }

    @Test
    void releaseForgetsNamedLocksAndStripes() {
        BundleLockView view = core.newView("a.bundle");
        SwappableLock before = view.lock("orders");
        view.stripes("keyspace", 16);
        view.sharedLock("common");
        int tracked = core.trackedFacades();
        assertEquals(2, view.rememberedNames());

        view.release();

        assertEquals(0, view.rememberedNames());
        assertEquals(tracked - 17, core.trackedFacades(), "the front still tracks the released locks");
        assertThrows(IllegalStateException.class, () -> view.lock("orders"));
        assertThrows(IllegalStateException.class, view::newLock);
        assertThrows(IllegalStateException.class, () -> view.sharedLock("common"));
        assertThrows(IllegalStateException.class, () -> view.stripes("keyspace", 16));
        BundleLockView again = core.newView("a.bundle");
        assertNotSame(before, again.lock("orders"));
        before.lock(); // a lock the consumer still holds keeps working
        before.unlock();
    }

    @Test
    void stripesAreStableAndSpreadKeys() {
        BundleLockView view = core.newView("a.bundle");
        LockStripes stripes = view.stripes("keyspace", 64);
        assertSame(stripes, view.stripes("keyspace", 64));
        assertThrows(IllegalArgumentException.class, () -> view.stripes("keyspace", 32));
        assertThrows(IllegalArgumentException.class, () -> view.stripes("other", 0));
        assertEquals(64, stripes.size());
        assertSame(stripes.forKey("user:42"), stripes.forKey(new String("user:42")));
        assertThrows(NullPointerException.class, () -> stripes.forKey(null));
        assertThrows(IndexOutOfBoundsException.class, () -> stripes.at(64));
        assertEquals("keyspace#3", stripes.at(3).name());

        Set<SwappableLock> used = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            used.add(stripes.forKey(i * 64)); // all 0 modulo 64: unmixed hashing would use one stripe
        }
        assertTrue(used.size() >= 48, "only " + used.size() + " of 64 stripes used");
    }

    @Test
    void argumentsAreChecked() {
        BundleLockView view = core.newView("a.bundle");
        assertThrows(NullPointerException.class, () -> view.lock(null));
        assertThrows(IllegalArgumentException.class, () -> view.lock(""));
        assertThrows(NullPointerException.class, () -> view.sharedLock(null));
        assertThrows(IllegalArgumentException.class, () -> view.stripes("", 4));
    }

    @Test
    void statisticsSumTheViewsLocks() {
        BundleLockView view = core.newView("a.bundle");
        SwappableLock named = view.lock("n");
        SwappableLock anonymous = view.newLock();
        LockStripes stripes = view.stripes("s", 4);
        named.lock();
        named.unlock();
        anonymous.lock();
        anonymous.unlock();
        stripes.at(2).lock();
        stripes.at(2).unlock();
        view.sharedLock("shared").lock();
        view.sharedLock("shared").unlock();
        assertEquals(3, view.statistics().acquisitions());
        assertEquals(Set.of(), view.strategies());
    }
}
