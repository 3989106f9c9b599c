package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;

/**
 * A periodic timer's firing re-uses its arming (which is also the wheel's node) and its owner's ticket, and that re-use never makes a
 * timer fire early or twice for one deadline, also while engines are swapped under it. Its handler is handed one
 * event object, filled in anew for each firing.
 */
class PeriodicReuseTest {

    @Test
    @Timeout(30)
    void aPeriodicTimerFiresWithOneArmingAndOneTicket() throws Exception {
        WheelTimerEngine wheel = WheelTimerEngine.started(1);
        Recording engine = new Recording(wheel);
        TimerFrontCore core = new TimerFrontCore();
        core.swapTo(engine);
        BundleTimerView view = core.newView("reuse-test");
        int firings = 50;
        CountDownLatch fired = new CountDownLatch(firings);
        java.util.Set<Object> events = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.List<Long> deadlines = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Timer timer = view.owner("periodic").scheduleAtFixedRate(Duration.ofMillis(1), Duration.ofMillis(1), e -> {
            synchronized (events) {
                events.add(e);
            }
            deadlines.add(e.deadlineNanos());
            fired.countDown();
        });
        try {
            assertTrue(fired.await(20, TimeUnit.SECONDS));
            timer.cancel();
            assertTrue(engine.armed.size() >= firings, "every period is armed: " + engine.armed.size());
            assertEquals(1, distinct(engine.armed), "entries armed for " + engine.armed.size() + " periods");
            assertEquals(1, distinct(engine.tasks), "tickets handed over for " + engine.tasks.size() + " runs");
            synchronized (events) {
                assertEquals(1, events.size(), "event objects handed to the handler over " + firings + " firings");
            }
            for (int i = 1; i < firings; i++) { // one object, filled in anew for each firing
                assertTrue(deadlines.get(i) - deadlines.get(i - 1) > 0, "firing " + i + " saw an old deadline");
            }
        } finally {
            core.release(view);
            core.swapTo(null);
            wheel.shutdown();
        }
    }

    @Test
    @Timeout(60)
    void periodicTimersNeverFireEarlyOrTwiceForOneDeadlineWhileEnginesSwap() throws Exception {
        TimerFrontCore core = new TimerFrontCore();
        List<TimerEngine> engines = List.of(WheelTimerEngine.started(2), WheelTimerEngine.started(2));
        core.swapTo(engines.get(0));
        BundleTimerView view = core.newView("reuse-swap-test");
        int timers = 50;
        long periodNanos = TimeUnit.MILLISECONDS.toNanos(1);
        List<List<long[]>> events = new ArrayList<>();
        AtomicInteger early = new AtomicInteger();
        for (int i = 0; i < timers; i++) {
            List<long[]> mine = Collections.synchronizedList(new ArrayList<>());
            events.add(mine);
            view.owner("owner-" + i).scheduleAtFixedRate(Duration.ofMillis(1), Duration.ofNanos(periodNanos), e -> {
                long now = System.nanoTime();
                if (now - e.deadlineNanos() < 0) {
                    early.incrementAndGet();
                }
                mine.add(new long[] {e.deadlineNanos(), e.missedFirings()});
            });
        }
        try {
            for (int swap = 0; swap < 1000; swap++) { // every swap races with firings: 50 timers at 1 ms on 2 engines
                core.swapTo(engines.get((swap + 1) % 2));
                if (swap % 20 == 19) {
                    core.swapTo(null); // through the standby engine now and then
                    core.swapTo(engines.get((swap + 1) % 2));
                }
                long pause = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(500);
                while (System.nanoTime() - pause < 0) {
                    Thread.onSpinWait();
                }
            }
            core.release(view);
            assertEquals(0, early.get(), "handlers started before their deadline");
            long total = 0;
            for (List<long[]> mine : events) {
                List<long[]> copy;
                synchronized (mine) {
                    copy = new ArrayList<>(mine);
                }
                total += copy.size();
                for (int k = 1; k < copy.size(); k++) {
                    long step = copy.get(k)[0] - copy.get(k - 1)[0];
                    // each event is the next period, or skips exactly the firings it reports missed
                    assertEquals((1 + copy.get(k)[1]) * periodNanos, step, "deadline step of event " + k);
                }
            }
            assertTrue(total > timers * 20L, "periodic timers went on firing: " + total);
        } finally {
            core.release(view);
            core.swapTo(null);
            for (TimerEngine engine : engines) {
                ((WheelTimerEngine) engine).shutdown();
            }
        }
    }

    private static int distinct(List<Object> objects) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        synchronized (objects) {
            seen.addAll(objects);
        }
        return seen.size();
    }

    /** The wheel engine, recording every entry armed and every task handed over (by identity). */
    private static final class Recording extends ForwardingTimerEngine {
        final List<Object> armed = Collections.synchronizedList(new ArrayList<>());
        final List<Object> tasks = Collections.synchronizedList(new ArrayList<>());

        Recording(WheelTimerEngine wheel) {
            super("recording", wheel);
        }

        @Override
        public boolean arm(TimerEntry entry) {
            boolean accepted = delegate.arm(entry);
            armed.add(entry);
            return accepted;
        }

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
            delegate.execute(task);
        }
    }
}
