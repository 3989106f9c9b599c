package org.rouse.benchmarks.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.benchmarks.measure.JitTime;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metrics;

/** A round counts every event, whichever thread ran it: each thread records on its own and the round adds them up. */
class PeriodicRoundTest {

    private static final int THREADS = 4;
    private static final int TIMERS_PER_THREAD = 50;
    private static final int EVENTS_PER_TIMER = 20;
    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long LATENESS = 2_000;

    /** Four threads, each running the events of its own timers one after another, all late by the same amount. */
    private static class FourThreads extends TimerBackend {
        private final List<Thread> threads = new ArrayList<>();

        FourThreads() {
            super("four threads");
        }

        @Override
        void startPeriodic(long[] firstDue, long periodNanos, Events events) {
            for (int t = 0; t < THREADS; t++) {
                int first = t * TIMERS_PER_THREAD;
                Thread thread = new Thread(() -> {
                    for (int timer = first; timer < first + TIMERS_PER_THREAD; timer++) {
                        for (int k = 0; k < EVENTS_PER_TIMER; k++) {
                            long due = firstDue[timer] + k * periodNanos;
                            events.fired(timer, due, due + LATENESS);
                        }
                    }
                });
                threads.add(thread);
                thread.start();
            }
        }

        @Override
        void armFar(int count, Duration delay) {}

        @Override
        void stopAll() {
            for (Thread thread : threads) {
                try {
                    thread.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        String timerThreadName() {
            return "four-threads";
        }

        @Override
        public void close() {}
    }

    @Test
    @Timeout(30)
    void everyThreadsEventsAreCountedWithTheirLatenessAndReentry() {
        int timers = THREADS * TIMERS_PER_THREAD;

        long jitBefore = JitTime.millis();
        Measurement m = PeriodicRound.run(new FourThreads(), timers, Duration.ofNanos(PERIOD), Duration.ofMillis(200));
        long jitAround = JitTime.millis() - jitBefore;

        assertEquals((double) timers * EVENTS_PER_TIMER, m.value(PeriodicRound.EVENTS), "every event of every thread");
        assertEquals(PERIOD / 1e9, m.value(PeriodicRound.MEAN_REENTRY_S), 1e-12, "re-entries of every thread");
        assertEquals(LATENESS / 1e3, m.value(Metrics.P50_US), LATENESS / 1e3 * 0.01, "lateness of every thread");
        double switches = m.value(PeriodicRound.VOLUNTARY_PER_EVENT);
        assertTrue(switches >= 0, "voluntary context switches per event are measured: " + switches);
        assertTrue(Double.isNaN(m.value(PeriodicRound.ENGINE_WAKEUPS_PER_S)), "a backend that counts none: n/a");
        if (jitBefore >= 0) {
            // the JVM compiled before this test, so a total since start would exceed what grew around the round
            double jit = m.value(PeriodicRound.JIT_MS);
            assertTrue(
                    jit >= 0 && jit <= jitAround,
                    "the round's share of compile time, within the " + jitAround + " ms around it: " + jit);
        }
    }

    /** Four threads whose backend reports 2,000 wake-ups, 500 of them the watchdog's, between two readings. */
    private static final class CountingFourThreads extends FourThreads {
        private int readings;

        @Override
        WakeCounts wakeCounts() {
            return readings++ == 0 ? new WakeCounts(1_000, 100) : new WakeCounts(3_000, 600);
        }
    }

    @Test
    @Timeout(30)
    void wakeUpsAreTheCountsGrowthDividedByTheWindow() {
        Duration budget = Duration.ofMillis(200);

        Measurement m = PeriodicRound.run(
                new CountingFourThreads(), THREADS * TIMERS_PER_THREAD, Duration.ofNanos(PERIOD), budget);

        // the window is the period plus the budget, 0.21 s, never shorter; a raw count (2,000) or a count not taken
        // as a difference (3,000 in 0.21 s is 14,286/s) falls outside
        double windowSeconds = (PERIOD + budget.toNanos()) / 1e9;
        double wakeups = m.value(PeriodicRound.ENGINE_WAKEUPS_PER_S);
        assertTrue(
                wakeups <= 2_000 / windowSeconds + 1e-6 && wakeups > 2_000 * 1.5,
                "2,000 wake-ups in a window of at least " + windowSeconds + " s, per second: " + wakeups);
        double watchdog = m.value(PeriodicRound.WATCHDOG_WAKEUPS_PER_S);
        assertEquals(0.25, watchdog / wakeups, 1e-9, "500 of the 2,000 over the same window: " + watchdog);
    }

    @Test
    @Timeout(30)
    void theWheelEngineBatchesWithSlackAndItsWatchdogWakes() throws Exception {
        try (TimerBackend rouse = new TimerBackend.Rouse(2, 1000)) {
            Measurement m = PeriodicRound.run(rouse, 100, Duration.ofMillis(10), Duration.ofMillis(300));

            // 100 timers of 10 ms, 10,000 events a second: with 1 ms of slack the leader wakes once per batch, about
            // once a millisecond, and the watchdog about once per two batches while handlers run
            double events = m.value(PeriodicRound.EVENTS) / 0.31;
            double wakeups = m.value(PeriodicRound.ENGINE_WAKEUPS_PER_S);
            assertTrue(
                    wakeups > 100 && wakeups < events / 2,
                    "engine wake-ups per second: " + wakeups + ", events: " + events);
            double watchdog = m.value(PeriodicRound.WATCHDOG_WAKEUPS_PER_S);
            assertTrue(watchdog > 0 && watchdog < wakeups, "watchdog wake-ups among them: " + watchdog);
        }
    }

    @Test
    @Timeout(30)
    void aHashedWheelTimerTicksOnlyDuringItsOwnRounds() throws Exception {
        try (TimerBackend.Netty netty = new TimerBackend.Netty(Duration.ofMillis(1))) {
            String worker = netty.timerThreadName();
            assertFalse(alive(worker), "no worker before the first round");
            netty.armFar(1, Duration.ofHours(1));
            assertTrue(alive(worker), "the worker runs under the name timer-idle looks for: " + worker);
            netty.stopAll();
            assertFalse(alive(worker), "stopAll ends it");

            for (int round = 1; round <= 2; round++) {
                Measurement m = PeriodicRound.run(netty, 50, Duration.ofMillis(10), Duration.ofMillis(200));

                assertTrue(m.value(PeriodicRound.EVENTS) > 0, "round " + round + " fired its timers");
                // idle, it would still tick every millisecond through the other variants' rounds
                assertFalse(alive(worker), "round " + round + "'s worker ended with the round");
            }
        }
    }

    private static boolean alive(String threadName) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(threadName) && t.isAlive());
    }
}
