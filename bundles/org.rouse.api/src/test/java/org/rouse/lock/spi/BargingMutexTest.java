package org.rouse.lock.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The final fast paths of {@link BargingMutex}: when they take the lock themselves and when they call the subclass. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BargingMutexTest {

    /** A subclass that records its slow-path calls; bit 2 stands for "someone waits". */
    private static final class Recording extends BargingMutex {
        static final int WAITERS = 2;
        volatile int lockContended;
        volatile int lockInterruptiblyContended;
        volatile int unlockContended;
        volatile int releasedWhileQueued;

        Recording() {
            this(false);
        }

        Recording(boolean releaseStore) {
            super(releaseStore);
        }

        @Override
        protected void lockContended() {
            lockContended = lockContended + 1; // one thread at a time in these tests
            takeWhileFree();
        }

        @Override
        protected void lockInterruptiblyContended() {
            lockInterruptiblyContended = lockInterruptiblyContended + 1;
            takeWhileFree();
        }

        @Override
        protected void unlockContended() {
            unlockContended = unlockContended + 1;
            getAndAddState(-LOCKED);
        }

        @Override
        protected void releasedWhileQueued() {
            releasedWhileQueued = releasedWhileQueued + 1;
        }

        void queued(boolean waiting) {
            setQueued(waiting);
        }

        private void takeWhileFree() {
            for (; ; ) {
                int s = state();
                if ((s & LOCKED) == 0 && compareAndSetState(s, s | LOCKED)) {
                    return;
                }
                Thread.onSpinWait();
            }
        }

        void markWaiters() {
            int s = state();
            assertTrue(compareAndSetState(s, s | WAITERS));
        }

        @Override
        public String strategy() {
            return "recording";
        }

        @Override
        public boolean tryLockNanos(long nanos) {
            return tryLock();
        }
    }

    @ParameterizedTest(name = "release store: {0}")
    @ValueSource(booleans = {false, true})
    void aFreeWordIsTakenAndReleasedWithoutTheSubclass(boolean releaseStore) throws InterruptedException {
        Recording mutex = new Recording(releaseStore);
        assertEquals(releaseStore, mutex.releasesByStore(), "the facade's swapper asks which release it is");
        mutex.lock();
        assertTrue(mutex.isLocked());
        assertEquals(BargingMutex.LOCKED, mutex.state());
        mutex.unlock();
        assertFalse(mutex.isLocked());
        mutex.lockInterruptibly();
        mutex.unlock();
        assertTrue(mutex.tryLock());
        assertFalse(mutex.tryLock(), "held: tryLock fails");
        mutex.unlock();
        assertEquals(0, mutex.lockContended + mutex.lockInterruptiblyContended + mutex.unlockContended);
    }

    @ParameterizedTest(name = "release store: {0}")
    @ValueSource(booleans = {false, true})
    void theSubclassBitsDoNotStopABargerAndAQueuedReleaseGoesToTheSubclass(boolean releaseStore) {
        Recording mutex = new Recording(releaseStore);
        mutex.queued(true); // the bargain: `queued` before any other bit
        mutex.markWaiters();
        assertFalse(mutex.isLocked(), "a subclass bit alone is not held");
        assertTrue(mutex.tryLock(), "LOCKED clear: a barger takes it whatever the other bits");
        assertEquals(BargingMutex.LOCKED | Recording.WAITERS, mutex.state(), "the other bits are kept");
        mutex.unlock();
        assertEquals(1, mutex.unlockContended, "threads may be queued: the release goes to the subclass");
        assertEquals(0, mutex.releasedWhileQueued, "no store release, so nothing to repair");
        assertEquals(Recording.WAITERS, mutex.state());
        mutex.lock();
        assertEquals(0, mutex.lockContended, "the fast CAS keeps the other bits and needs no slow path");
        mutex.unlock();
    }

    @ParameterizedTest(name = "release store: {0}")
    @ValueSource(booleans = {false, true})
    void aReleaseByAStoreIsChosenByQueuedAloneAndClearsStaleBits(boolean releaseStore) {
        Recording mutex = new Recording(releaseStore);
        mutex.lock();
        mutex.unlock();
        assertEquals(
                0, mutex.unlockContended + mutex.releasedWhileQueued, "nobody queued: the store is the whole release");
        mutex.lock();
        mutex.markWaiters(); // a bit left over with nobody queued (the subclass has cleared `queued`)
        mutex.unlock();
        assertEquals(0, mutex.unlockContended, "`queued` clear: released by the store, whatever the word holds");
        assertEquals(0, mutex.state(), "the store frees the word, stale bits included");
        mutex.queued(true);
        mutex.lock();
        mutex.unlock();
        assertEquals(1, mutex.unlockContended, "`queued` set, even over LOCKED alone: the subclass releases");
        assertFalse(mutex.isLocked());
    }

    @Test
    void aHeldWordSendsTheAcquisitionToTheSubclass() throws Exception {
        Recording mutex = new Recording();
        assertTrue(mutex.tryLock());
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
            mutex.lock();
            mutex.unlock();
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> mutex.lockContended == 1);
        assertFalse(second.isDone(), "held by this thread: the other waits in the subclass");
        mutex.unlock();
        second.get(10, TimeUnit.SECONDS);
        assertFalse(mutex.isLocked());
    }

    @Test
    void lockInterruptiblySeesAnInterruptBeforeTheWord() {
        Recording mutex = new Recording();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, mutex::lockInterruptibly);
        assertFalse(mutex.isLocked());
        assertFalse(Thread.interrupted(), "the status was consumed by the throw");
        assertEquals(0, mutex.lockInterruptiblyContended);
    }
}
