package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.timer.spi.TimerEntry;

/** The wheel engine on real threads: signalling, idle behaviour, configuration, and the schedule/cancel/fire race. */
@Timeout(60)
class WheelTimerEngineTest {

    private final List<WheelTimerEngine> engines = new ArrayList<>();

    private WheelTimerEngine engine(int workers, long spinMicros, long tickMicros) {
        WheelTimerEngine engine = WheelTimerEngine.started(workers, spinMicros, tickMicros);
        engines.add(engine);
        return engine;
    }

    @AfterEach
    void stop() {
        engines.forEach(WheelTimerEngine::shutdown);
    }

    @Test
    void anEarlierTimerWakesTheDispatcherParkedForALaterOne() throws Exception {
        WheelTimerEngine engine = engine(1, 0, 1000);
        Probe far = new Probe(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
        assertTrue(engine.arm(far));
        Probe near = new Probe(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20));
        assertTrue(engine.arm(near));
        assertTrue(near.fired.await(10, TimeUnit.SECONDS), "the dispatcher slept through an earlier deadline");
        assertTrue(near.firedAt - near.deadline >= 0, "fired early");
        assertEquals(1, engine.armedCount());
        assertTrue(engine.disarm(far));
        assertEquals(0, engine.armedCount());
    }

    @Test
    void anEntryArmedAgainAfterItExpiredExpiresAtItsNewDeadline() throws Exception {
        WheelTimerEngine engine = engine(1, 0, 1000);
        Rearmed entry = new Rearmed(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2));
        assertTrue(engine.arm(entry));
        assertTrue(entry.engineSlot() == engine, "the entry names the engine that holds it, not a node of its own");
        assertTrue(entry.expiries.poll(10, TimeUnit.SECONDS) != null, "the first arming expired");
        for (int period = 0; period < 20; period++) {
            entry.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
            assertTrue(engine.arm(entry));
            Long firedAt = entry.expiries.poll(10, TimeUnit.SECONDS);
            assertTrue(firedAt != null, "period " + period + " expired");
            assertTrue(firedAt - entry.deadline >= 0, "period " + period + " expired before its new deadline");
        }
        assertEquals(0, engine.armedCount());
        // Once per engine, not once per period: a store of the engine into a long-lived entry costs a G1 card mark
        // and its refinement, which at 10,000 periodic timers had the workers' p99 lateness at 3x the executor's.
        assertEquals(1, entry.slotWrites.get(), "the entry was told its engine again at a re-arm");
    }

    /**
     * The entry is the wheel's node, so an engine reading an entry that another engine took over since (a swap's drain
     * moved it) sees that engine's position and link. It must check them against its own arrays: here the link names
     * an arena slot that now holds another entry, and a disarm that trusted it would unlink that one.
     */
    @Test
    void anEngineChecksAnEntrysPositionAgainstItsOwnArraysBeforeTrustingIt() {
        WheelTimerEngine first = engine(1, 0, 1000);
        WheelTimerEngine second = engine(1, 0, 1000);
        long inAnHour = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
        FixedEntry moved = new FixedEntry(inAnHour);
        FixedEntry stays = new FixedEntry(inAnHour);
        assertTrue(first.arm(moved));
        assertEquals(List.of(moved), first.drain());
        assertTrue(first.arm(stays)); // takes the arena slot that moved had in the first engine
        assertTrue(second.arm(moved));
        assertEquals(stays.engineLink(), moved.engineLink(), "both engines gave their entry arena slot 0");
        moved.engineSlot(first); // as a read racing with the second engine's arm may see it
        assertFalse(first.disarm(moved), "the first engine's arena slot holds another entry");
        assertEquals(1, first.armedCount());
        moved.engineSlot(second);
        assertTrue(second.disarm(moved));
        assertTrue(first.disarm(stays));
        assertEquals(0, first.armedCount());
        assertEquals(0, second.armedCount());
    }

    /** An entry whose deadline is set anew before each arming, as the front does for a periodic timer. */
    static final class Rearmed extends EngineSlots {
        final java.util.concurrent.BlockingQueue<Long> expiries = new java.util.concurrent.LinkedBlockingQueue<>();
        volatile long deadline;

        final AtomicInteger slotWrites = new AtomicInteger();

        Rearmed(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public void engineSlot(Object slot) {
            slotWrites.incrementAndGet();
            super.engineSlot(slot);
        }

        @Override
        public long deadlineNanos() {
            return deadline;
        }

        @Override
        public void expire() {
            expiries.add(System.nanoTime());
        }
    }

    @Test
    void noWakeupsWhileNothingIsDue() throws Exception {
        WheelTimerEngine engine = engine(2, 0, 1000);
        long start = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
        for (int i = 0; i < 100_000; i++) {
            engine.arm(new Probe(start + i * 10_000L)); // spread over 1 s, an hour from now
        }
        // The window: a sentinel due in 300 ms. Arming it wakes the dispatcher once (an earlier deadline), its
        // deadline once more; the 100,000 far timers must add nothing, not even a cascade. The first far arming
        // woke the dispatcher parked with nothing armed; it counts that wake-up when it gets a CPU, which on a busy
        // machine can be after the arming loop: only once it has parked again is that wake-up behind us.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(engine::dispatcherParked);
        long before = engine.dispatcherWakeups();
        Probe sentinel = new Probe(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300));
        engine.arm(sentinel);
        assertTrue(sentinel.fired.await(10, TimeUnit.SECONDS));
        long during = engine.dispatcherWakeups() - before;
        assertTrue(during <= 2, "dispatcher woke " + during + " times for one timer");
        assertEquals(100_000, engine.armedCount());
        assertEquals(1, engine.expired());
    }

    @Test
    void aTimerArmedWithNothingElsePendingWakesAParkedDispatcher() throws Exception {
        WheelTimerEngine engine = engine(1, 0, 1000);
        for (int i = 0; i < 3; i++) {
            Awaitility.await().until(engine::dispatcherParked);
            Probe probe = new Probe(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5));
            engine.arm(probe);
            assertTrue(probe.fired.await(10, TimeUnit.SECONDS));
        }
        assertEquals(3, engine.signals(), "one unpark per timer armed while the dispatcher was parked");
    }

    @Test
    void spinModeFiresAtTheDeadlineAndStillWakesForEarlierTimers() throws Exception {
        WheelTimerEngine engine = engine(1, 200, 1000);
        Probe later = new Probe(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200));
        engine.arm(later);
        Probe sooner = new Probe(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10));
        engine.arm(sooner);
        assertTrue(sooner.fired.await(10, TimeUnit.SECONDS));
        assertTrue(later.fired.await(10, TimeUnit.SECONDS));
        assertTrue(sooner.firedAt - sooner.deadline >= 0 && later.firedAt - later.deadline >= 0, "fired early");
    }

    @Test
    void aWaitNoLongerThanTheSpinIsSpunThroughWithoutParking() throws Exception {
        WheelTimerEngine engine = engine(1, 1000, 1000);
        for (int i = 0; i < 3; i++) {
            Awaitility.await().until(engine::dispatcherParked); // parked with nothing armed
            long before = engine.dispatcherWakeups();
            // the arm wakes the leader (one wake-up); its wait for the deadline, under the 1 ms spin, parks no more
            Probe probe = new Probe(System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(800));
            engine.arm(probe);
            assertTrue(probe.fired.await(10, TimeUnit.SECONDS));
            assertTrue(probe.firedAt - probe.deadline >= 0, "fired early");
            Awaitility.await().until(engine::dispatcherParked);
            assertEquals(1, engine.dispatcherWakeups() - before, "the leader parked for a wait shorter than the spin");
        }
    }

    @Test
    void changingTheTickKeepsEveryTimerAndAnInvalidChangeIsRejected() throws Exception {
        WheelTimerEngine engine = engine(1, 0, 1000);
        List<Probe> probes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Probe probe = new Probe(System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(i * 300L));
            probes.add(probe);
            engine.arm(probe);
        }
        engine.modified(config(3, 0, 64));
        engine.modified(config(0, -1, 0)); // every value out of range: rejected whole
        for (Probe probe : probes) {
            assertTrue(probe.fired.await(10, TimeUnit.SECONDS));
            assertEquals(1, probe.runs.get());
        }
        assertEquals(new WheelTimerEngine.Settings(3, 0, 64, 0), engine.settings());
        assertEquals(0, engine.armedCount());
    }

    @Test
    void settingsRoundTheTickDownToAPowerOfTwo() {
        assertEquals(19, new WheelTimerEngine.Settings(1, 0, 1000, 0).tickShift()); // 524,288 ns
        assertEquals(9, new WheelTimerEngine.Settings(1, 0, 1, 0).tickShift()); // 512 ns
        assertEquals(29, new WheelTimerEngine.Settings(1, 0, 1_000_000, 0).tickShift());
    }

    /**
     * A jcstress-style race: one thread arms an entry due now, one disarms it, one drains the engine. Whatever the
     * interleaving, exactly one of expire, disarm and drain gets each entry, and nothing stays armed.
     */
    @Test
    void armDisarmDrainAndExpireRaceLeavesEachEntryWithExactlyOneOwner() throws Exception {
        WheelTimerEngine engine = engine(1, 0, 1);
        for (int round = 0; round < 2000; round++) {
            Probe probe =
                    new Probe(System.nanoTime() + ThreadLocalRandom.current().nextInt(200_000));
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicInteger disarmed = new AtomicInteger();
            List<TimerEntry> drained = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread canceller = new Thread(() -> {
                await(start);
                if (engine.disarm(probe)) {
                    disarmed.incrementAndGet();
                }
            });
            Thread drainer = new Thread(() -> {
                await(start);
                drained.addAll(engine.drain());
            });
            assertTrue(engine.arm(probe));
            canceller.start();
            drainer.start();
            canceller.join();
            drainer.join();
            // Entries expire in deadline order, so once a later fence has expired, the probe has too, if it will.
            Probe fence = new Probe(Math.max(System.nanoTime(), probe.deadline + 1));
            engine.arm(fence);
            assertTrue(fence.fired.await(10, TimeUnit.SECONDS));
            int owners = disarmed.get() + drained.size() + probe.runs.get();
            assertEquals(
                    1,
                    owners,
                    "round " + round + ": disarmed " + disarmed + ", drained " + drained.size() + ", expired "
                            + probe.runs.get());
            assertEquals(0, engine.armedCount());
        }
    }

    @Test
    void manyThreadsSchedulingAndCancellingLoseNothingAndFireNothingTwice() throws Exception {
        WheelTimerEngine engine = engine(2, 0, 64);
        int threads = 8;
        int perThread = 20_000;
        AtomicLong disarmed = new AtomicLong();
        List<Probe> all = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        List<Probe> mine = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            long delay = switch (random.nextInt(3)) {
                                case 0 -> random.nextLong(2_000_000);
                                case 1 -> random.nextLong(200_000_000);
                                default -> random.nextLong(TimeUnit.DAYS.toNanos(400));
                            };
                            Probe probe = new Probe(System.nanoTime() + delay);
                            engine.arm(probe);
                            mine.add(probe);
                            if (random.nextInt(3) == 0) {
                                Probe victim = mine.get(random.nextInt(mine.size()));
                                if (engine.disarm(victim)) {
                                    victim.disarmed.incrementAndGet();
                                    disarmed.incrementAndGet();
                                }
                            }
                        }
                        all.addAll(mine);
                        done.countDown();
                    })
                    .start();
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        List<TimerEntry> rest = engine.drain();
        for (TimerEntry entry : rest) {
            ((Probe) entry).disarmed.incrementAndGet();
        }
        // Drained and disarmed ones never fire; every other one fired (or fires shortly, if due now) exactly once.
        for (Probe probe : all) {
            if (probe.disarmed.get() == 0) {
                assertTrue(probe.fired.await(10, TimeUnit.SECONDS), "lost a timer");
            }
        }
        for (Probe probe : all) {
            assertEquals(1, probe.disarmed.get() + probe.runs.get(), "disarmed and fired, or neither");
        }
        assertEquals(0, engine.armedCount());
        assertTrue(disarmed.get() > 0 && !rest.isEmpty(), "the test exercised disarm and drain");
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static TimerEngineConfig config(int workers, long spin, long tick) {
        return config(workers, spin, tick, 0);
    }

    static TimerEngineConfig config(int workers, long spin, long tick, long slack) {
        return config(workers, spin, tick, slack, WheelTimerEngine.DEFAULT_KERNEL_SLACK_MICROS);
    }

    static TimerEngineConfig config(int workers, long spin, long tick, long slack, long kernelSlack) {
        return new TimerEngineConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return TimerEngineConfig.class;
            }

            @Override
            public int worker_threads() {
                return workers;
            }

            @Override
            public long spin_micros() {
                return spin;
            }

            @Override
            public long tick_micros() {
                return tick;
            }

            @Override
            public long slack_micros() {
                return slack;
            }

            @Override
            public long help_after_micros() {
                return WheelTimerEngine.DEFAULT_HELP_AFTER_MICROS;
            }

            @Override
            public long kernel_slack_micros() {
                return kernelSlack;
            }
        };
    }

    /** An entry that records when and how often it expired. */
    static final class Probe extends FixedEntry {
        final CountDownLatch fired = new CountDownLatch(1);
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger disarmed = new AtomicInteger();
        volatile long firedAt;

        Probe(long deadline) {
            super(deadline);
        }

        @Override
        public void expire() {
            firedAt = System.nanoTime();
            runs.incrementAndGet();
            fired.countDown();
        }
    }
}
