package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerState;

/** The timer contract, through the real front and the real engine, on real threads. */
@Timeout(30)
class TimerServiceTest {

    private final TimerFrontCore core = new TimerFrontCore();
    private WheelTimerEngine engine;
    private BundleTimerView timers;

    @BeforeEach
    void start() {
        engine = WheelTimerEngine.started(4);
        core.swapTo(engine);
        timers = core.newView("test");
    }

    @AfterEach
    void stop() {
        core.release(timers);
        core.swapTo(null);
        engine.shutdown();
    }

    @Test
    void oneShotFiresOnceAtOrAfterItsDeadline() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        long before = System.nanoTime();
        Timer timer = timers.owner("a").schedule(Duration.ofMillis(20), e -> {
            runs.incrementAndGet();
            fired.countDown();
        });
        assertTrue(fired.await(10, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - before >= TimeUnit.MILLISECONDS.toNanos(20), "fired early");
        Awaitility.await().until(() -> timer.state() == TimerState.FIRED);
        assertEquals(1, runs.get());
        assertFalse(timer.cancel(), "cancel after firing prevents nothing");
        assertEquals(1, timers.statistics().fired());
        assertEquals(0, timers.statistics().pending());
        assertEquals("wheel", timers.statistics().engine());
    }

    @Test
    void cancelBeforeTheDeadlinePreventsTheRunAndFreesTheEngine() {
        Timer timer = timers.owner("a").schedule(Duration.ofHours(1), e -> {
            throw new AssertionError("must not run");
        });
        assertEquals(1, engine.armedCount());
        assertTrue(timer.cancel());
        assertFalse(timer.cancel(), "idempotent");
        assertEquals(TimerState.CANCELLED, timer.state());
        assertEquals(0, engine.armedCount(), "a cancelled timer is not retained until its deadline");
        assertEquals(1, timers.statistics().cancelled());
    }

    @Test
    void anInstantInThePastFiresAtOnce() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        timers.owner("a").scheduleAt(Instant.now().minusSeconds(3600), e -> fired.countDown());
        assertTrue(fired.await(10, TimeUnit.SECONDS));
    }

    @Test
    void fixedRateKeepsItsPhase() throws Exception {
        List<Long> deadlines = new CopyOnWriteArrayList<>();
        CountDownLatch five = new CountDownLatch(5);
        Timer timer = timers.owner("a").scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(10), e -> {
            deadlines.add(e.deadlineNanos());
            five.countDown();
        });
        assertTrue(five.await(10, TimeUnit.SECONDS));
        timer.cancel();
        long period = TimeUnit.MILLISECONDS.toNanos(10);
        for (int i = 1; i < 5; i++) {
            long step = deadlines.get(i) - deadlines.get(i - 1);
            assertEquals(0, step % period, "deadlines stay on the phase: " + step);
            assertTrue(step > 0);
        }
    }

    @Test
    void aSlowPeriodicHandlerHasItsMissedFiringsCoalescedNotQueued() throws Exception {
        // the service fills one event object per owner again for every firing, valid only while the handler runs:
        // keep its values, not the object (a third firing before the cancel would overwrite the second's)
        List<long[]> firings = new CopyOnWriteArrayList<>(); // {deadline, missed firings}
        CountDownLatch two = new CountDownLatch(2);
        long period = TimeUnit.MILLISECONDS.toNanos(5);
        Timer timer = timers.owner("a").scheduleAtFixedRate(Duration.ZERO, Duration.ofNanos(period), e -> {
            firings.add(new long[] {e.deadlineNanos(), e.missedFirings()});
            if (firings.size() == 1) { // this handler is slow: it works through six periods
                long until = System.nanoTime() + 6 * period;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            two.countDown();
        });
        assertTrue(two.await(10, TimeUnit.SECONDS));
        timer.cancel();
        long[] first = firings.get(0);
        long[] second = firings.get(1);
        assertTrue(second[1] >= 4, "missed firings reported: " + second[1]);
        assertEquals(0, (second[0] - first[0]) % period, "the coalesced event is on phase");
    }

    @Test
    void oneOwnerRunsOneHandlerAtATimeInDueOrder() throws Exception {
        TimerOwner owner = timers.owner("serial");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Integer> order = new CopyOnWriteArrayList<>();
        int count = 200;
        CountDownLatch done = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            owner.schedule(Duration.ofMillis(5 + i / 10), e -> {
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                order.add(index);
                inside.decrementAndGet();
                done.countDown();
            });
        }
        assertTrue(done.await(20, TimeUnit.SECONDS));
        assertEquals(0, overlaps.get(), "handlers of one owner overlapped");
        for (int i = 1; i < count; i++) {
            assertTrue(order.get(i - 1) / 10 <= order.get(i) / 10, "ran out of due order at " + i);
        }
    }

    @Test
    void aBlockedOwnerDoesNotHoldUpOthers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blockedStarted = new CountDownLatch(1);
        timers.owner("blocked").schedule(Duration.ZERO, e -> {
            blockedStarted.countDown();
            release.await();
        });
        assertTrue(blockedStarted.await(10, TimeUnit.SECONDS));
        CountDownLatch other = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            timers.owner("other-" + i).schedule(Duration.ofMillis(1), e -> other.countDown());
        }
        assertTrue(other.await(10, TimeUnit.SECONDS), "other owners ran while one was blocked");
        release.countDown();
    }

    @Test
    void aThrowingHandlerIsCountedAndItsPeriodicTimerGoesOn() throws Exception {
        CountDownLatch three = new CountDownLatch(3);
        Timer timer = timers.owner("a").scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(5), e -> {
            three.countDown();
            throw new IllegalStateException("handler failure (expected by the test)");
        });
        assertTrue(three.await(10, TimeUnit.SECONDS));
        Awaitility.await().until(() -> timers.statistics().failed() >= 3);
        timer.cancel();
    }

    @Test
    void aHandlerThatThrowsAnErrorIsContainedToItsEventAndTheOwnerGoesOn() throws Exception {
        TimerOwner owner = timers.owner("errors");
        AtomicInteger periodicRuns = new AtomicInteger();
        CountDownLatch periodicGoesOn = new CountDownLatch(3);
        Timer periodic = owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(5), e -> {
            if (periodicRuns.incrementAndGet() == 1) {
                recurse(0); // a real StackOverflowError
            }
            periodicGoesOn.countDown();
        });
        assertTrue(periodicGoesOn.await(10, TimeUnit.SECONDS), "the periodic timer stopped after its handler's Error");
        periodic.cancel();
        CountDownLatch thrownFirst = new CountDownLatch(1);
        owner.schedule(Duration.ZERO, e -> {
            thrownFirst.countDown();
            throw new StackOverflowError("thrown by the test");
        });
        assertTrue(thrownFirst.await(10, TimeUnit.SECONDS));
        CountDownLatch later = new CountDownLatch(5);
        for (int i = 0; i < 5; i++) {
            owner.schedule(Duration.ofMillis(i), e -> later.countDown());
        }
        assertTrue(later.await(10, TimeUnit.SECONDS), "later events of the owner were dropped");
        assertEquals(2, timers.statistics().failed(), "each Error counted as a failed handler");
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    @Test
    void rescheduleRestartsTheClockLikeLlSetTimerEvent() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        Timer timer = timers.owner("a").schedule(Duration.ofHours(1), e -> fired.countDown());
        timer.reschedule(Duration.ofMillis(5));
        assertTrue(fired.await(10, TimeUnit.SECONDS));
        assertEquals(0, engine.armedCount(), "the replaced arming was disarmed");
    }

    @Test
    void closingAnOwnerCancelsAllItsTimers() {
        TimerOwner owner = timers.owner("a");
        Timer one = owner.schedule(Duration.ofHours(1), e -> {});
        Timer periodic = owner.scheduleWithFixedDelay(Duration.ofHours(1), Duration.ofHours(1), e -> {});
        owner.close();
        assertEquals(TimerState.CANCELLED, one.state());
        assertEquals(TimerState.CANCELLED, periodic.state());
        assertEquals(0, engine.armedCount());
        assertThrows(IllegalStateException.class, () -> owner.schedule(Duration.ZERO, e -> {}));
        assertFalse(timers.owner("a").isClosed(), "the name can be used again for a new owner");
    }

    @Test
    void releasingTheViewCancelsEverythingAndRefusesNewOwners() {
        timers.owner("a").schedule(Duration.ofHours(1), e -> {});
        timers.owner("b").scheduleAtFixedRate(Duration.ofHours(1), Duration.ofHours(1), e -> {});
        core.release(timers);
        assertEquals(0, engine.armedCount());
        assertThrows(IllegalStateException.class, () -> timers.owner("c"));
    }

    @Test
    void badArgumentsAreRejectedWithTheirNames() {
        TimerOwner owner = timers.owner("a");
        assertMessage(NullPointerException.class, "handler", () -> owner.schedule(Duration.ZERO, null));
        assertMessage(NullPointerException.class, "delay", () -> owner.schedule(null, e -> {}));
        assertMessage(IllegalArgumentException.class, "delay", () -> owner.schedule(Duration.ofMillis(-1), e -> {}));
        assertMessage(
                IllegalArgumentException.class,
                "period",
                () -> owner.scheduleAtFixedRate(Duration.ZERO, Duration.ZERO, e -> {}));
        assertMessage(
                IllegalArgumentException.class,
                "too large",
                () -> owner.schedule(Duration.ofSeconds(Long.MAX_VALUE), e -> {}));
        assertMessage(IllegalArgumentException.class, "name", () -> timers.owner(""));
        assertEquals(0, engine.armedCount(), "nothing half-scheduled");
    }

    private static void assertMessage(Class<? extends Throwable> type, String fragment, Runnable call) {
        Throwable thrown = assertThrows(type, call::run);
        assertTrue(thrown.getMessage().contains(fragment), thrown.getMessage());
    }
}
