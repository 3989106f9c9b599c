package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerState;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;

/**
 * A timer's handle is its own arming (one object per pending timer) whenever no engine can still know its previous
 * arming as itself, and a stand-in arming otherwise: an expiry of the handle that an engine delivers late must never
 * fire a later arming early.
 */
class SelfArmingTest {

    private static final Duration HOUR = Duration.ofHours(1);

    private final HoldingEngine engine = new HoldingEngine();
    private TimerFrontCore core;
    private BundleTimerView view;
    private TimerOwner owner;

    @BeforeEach
    void setUp() {
        core = new TimerFrontCore();
        core.swapTo(engine);
        view = core.newView("self-arming-test");
        owner = view.owner("owner");
    }

    @AfterEach
    void tearDown() {
        core.release(view);
        core.swapTo(null);
    }

    @Test
    @Timeout(10)
    void aOneShotIsItsOwnArmingAndFiresOnceWhenItExpires() {
        AtomicInteger runs = new AtomicInteger();
        Timer timer = owner.schedule(HOUR, e -> runs.incrementAndGet());
        assertSame(timer, engine.lastArmed(), "the engine holds the handle itself");
        engine.lastArmed().expire();
        assertEquals(1, runs.get());
        assertEquals(TimerState.FIRED, timer.state());
    }

    @Test
    @Timeout(10)
    void aTimerTheEngineGaveBackOnCancelArmsItselfAgain() {
        Timer timer = owner.schedule(HOUR, e -> {});
        assertTrue(timer.cancel());
        timer.reschedule(HOUR);
        assertEquals(2, engine.armedCount.get());
        assertSame(timer, engine.lastArmed(), "the handle armed itself again: no engine knew it any more");
        assertTrue(timer.cancel());
    }

    @Test
    @Timeout(10)
    void anExpiryOfTheHandleThatComesAfterACancelNeverFiresTheNextArming() {
        AtomicInteger runs = new AtomicInteger();
        Timer timer = owner.schedule(HOUR, e -> runs.incrementAndGet());
        TimerEntry stale = engine.lastArmed();
        engine.disarmFinds = false; // as if the engine's dispatcher were expiring it right now
        assertTrue(timer.cancel());
        timer.reschedule(HOUR);
        TimerEntry next = engine.lastArmed();
        assertNotSame(timer, next, "an engine may still know the handle: the next arming must be another object");

        stale.expire(); // the in-flight expiry arrives
        assertEquals(0, runs.get(), "a late expiry of the cancelled arming fired the next one early");
        assertEquals(TimerState.SCHEDULED, timer.state());
        assertTrue(timer.remaining().isPresent());

        next.expire();
        assertEquals(1, runs.get());
        assertEquals(TimerState.FIRED, timer.state());
        engine.disarmFinds = true;
        timer.reschedule(HOUR);
        assertNotSame(timer, engine.lastArmed(), "a handle an engine may still know never arms itself again");
        assertTrue(timer.cancel());
    }

    @Test
    @Timeout(10)
    void aRescheduleDuringItsOwnRunUsesAStandInAndTheHandleArmsItselfOnceTheRunEnded() {
        AtomicReference<Timer> self = new AtomicReference<>();
        AtomicInteger runs = new AtomicInteger();
        Timer timer = owner.schedule(HOUR, e -> {
            if (runs.incrementAndGet() == 1) {
                self.get().reschedule(HOUR); // the handle is this run's arming: it cannot arm itself now
            }
        });
        self.set(timer);
        engine.lastArmed().expire();
        assertEquals(1, runs.get());
        TimerEntry standIn = engine.lastArmed();
        assertNotSame(timer, standIn);
        assertEquals(TimerState.SCHEDULED, timer.state());

        assertTrue(timer.cancel()); // the engine gives the stand-in back
        timer.reschedule(HOUR);
        assertSame(timer, engine.lastArmed(), "the run ended, so the handle is free to be its own arming again");
        engine.lastArmed().expire();
        assertEquals(2, runs.get());
    }

    /**
     * Holds what is armed in a list and runs tasks on the calling thread; its disarm finds nothing while
     * {@code disarmFinds} is false (an expiry in flight), and keeps the entry so that the test can expire it late.
     */
    static final class HoldingEngine implements TimerEngine {
        final List<TimerEntry> armed = new ArrayList<>();
        final AtomicInteger armedCount = new AtomicInteger();
        volatile boolean disarmFinds = true;

        synchronized TimerEntry lastArmed() {
            return armed.get(armed.size() - 1);
        }

        @Override
        public String name() {
            return "holding";
        }

        @Override
        public synchronized boolean arm(TimerEntry entry) {
            armed.add(entry);
            armedCount.incrementAndGet();
            return true;
        }

        @Override
        public synchronized boolean disarm(TimerEntry entry) {
            return disarmFinds && armed.contains(entry);
        }

        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public synchronized List<TimerEntry> drain() {
            List<TimerEntry> all = new ArrayList<>(armed);
            armed.clear();
            return all;
        }

        @Override
        public long dispatcherWakeups() {
            return 0;
        }

        @Override
        public synchronized int armedCount() {
            return armed.size();
        }
    }
}
