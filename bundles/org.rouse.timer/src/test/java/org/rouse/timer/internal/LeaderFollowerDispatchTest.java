package org.rouse.timer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;

/**
 * The wheel engine's leader/follower dispatch, on real threads: through the real front, an owner's handlers never
 * overlap and run in due order while 8 threads schedule and cancel; due timers fire as one batch with fewer unparks
 * than tasks; a timer falls due on time while another owner's handler holds a worker (another worker took over the
 * waiting); a periodic timer costs at most one hand-off per firing; a leader replaced by a takeover becomes the
 * watchdog without a follower woken for it; and the timer slack groups deadlines into one wake-up without firing any
 * early.
 */
@Timeout(60)
class LeaderFollowerDispatchTest {

    private final StartedEngines started = new StartedEngines();

    private WheelTimerEngine engine(int workers, long slackMicros) {
        return started.add(WheelTimerEngine.started(workers, 0, 1000, slackMicros));
    }

    private BundleTimerView front(WheelTimerEngine engine) {
        return started.front(engine, "leader-follower");
    }

    @AfterEach
    void stop() {
        started.stopAll();
    }

    @Test
    void anOwnersHandlersNeverOverlapWhileManyOwnersFireInParallel() throws Exception {
        BundleTimerView view = front(engine(4, 0));
        int owners = 40;
        int perOwner = 10;
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong fired = new AtomicLong();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch enough = new CountDownLatch(owners * perOwner * 20);
        for (int o = 0; o < owners; o++) {
            TimerOwner owner = view.owner("owner-" + o);
            AtomicInteger running = new AtomicInteger();
            for (int t = 0; t < perOwner; t++) {
                owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(1), e -> {
                    if (running.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    threads.add(Thread.currentThread());
                    long until = System.nanoTime() + 20_000;
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait(); // long enough for another worker to try the same owner
                    }
                    fired.incrementAndGet();
                    running.decrementAndGet();
                    enough.countDown();
                });
            }
        }
        assertTrue(enough.await(30, TimeUnit.SECONDS), "only " + fired + " events fired");
        assertEquals(0, overlaps.get(), "an owner ran two handlers at once");
        assertTrue(threads.size() > 1, "owners ran on " + threads.size() + " worker only");
    }

    @Test
    void awakeWorkersFireDueTimersInPlaceOfAParkedLeaderAndNothingWakesOnceIdle() throws Exception {
        WheelTimerEngine engine = engine(4, 0);
        BundleTimerView view = front(engine);
        // 500 one-owner timers at 5 ms: a deadline every 10 µs on average, so workers come back from handlers while
        // the leader is parked until a deadline that has just passed, and take its batch over.
        int timers = 500;
        List<TimerOwner> owners = new ArrayList<>();
        AtomicInteger early = new AtomicInteger();
        AtomicInteger outOfOrder = new AtomicInteger();
        for (int i = 0; i < timers; i++) {
            TimerOwner owner = view.owner("owner-" + i);
            owners.add(owner);
            AtomicLong last = new AtomicLong();
            owner.scheduleAtFixedRate(
                    Duration.ofNanos(ThreadLocalRandom.current().nextLong(5_000_000)), Duration.ofMillis(5), e -> {
                        if (System.nanoTime() - e.deadlineNanos() < 0) {
                            early.incrementAndGet();
                        }
                        long previous = last.getAndSet(e.deadlineNanos());
                        if (previous != 0 && e.deadlineNanos() - previous <= 0) {
                            outOfOrder.incrementAndGet();
                        }
                    });
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> engine.takeovers() > 0);
        owners.forEach(TimerOwner::close);
        assertEquals(0, early.get(), "a handler started before its deadline");
        assertEquals(0, outOfOrder.get(), "a timer's deadlines did not advance from one run to the next");

        // The thread a takeover replaced is not left waiting: once every worker is parked with nothing owed to it,
        // one timer costs its own wake-ups (the arm's unpark of the leader parked with nothing armed, the deadline).
        // Quiescent over two polls 50 ms apart with no wake-up counted between them: a park that returns at once on a
        // permit left over from an unpark that met an already returning thread is counted just after it re-enters
        // the idle stack, which one look at the lock cannot see.
        AtomicLong lastWakeups = new AtomicLong(-1);
        Awaitility.await()
                .pollInterval(Duration.ofMillis(50))
                .atMost(Duration.ofSeconds(10))
                .until(() -> {
                    long now = engine.dispatcherWakeups();
                    return engine.quiescent() && lastWakeups.getAndSet(now) == now;
                });
        long before = engine.dispatcherWakeups();
        CountDownLatch fired = new CountDownLatch(1);
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        TimerOwner last = view.owner("sentinel");
        last.schedule(Duration.ofNanos(due - System.nanoTime()), e -> fired.countDown());
        assertTrue(fired.await(10, TimeUnit.SECONDS), "a timer armed after the load never fired");
        long during = engine.dispatcherWakeups() - before;
        assertTrue(during <= 2, "workers woke " + during + " times for one timer");
    }

    @Test
    void dueOrderIsKeptPerOwnerWhileEightThreadsScheduleAndCancel() throws Exception {
        BundleTimerView view = front(engine(4, 0));
        int owners = 16;
        List<TimerOwner> all = new ArrayList<>();
        Map<TimerOwner, List<Long>> ran = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        for (int o = 0; o < owners; o++) {
            TimerOwner owner = view.owner("owner-" + o);
            all.add(owner);
            List<Long> order = Collections.synchronizedList(new ArrayList<>());
            ran.put(owner, order);
        }
        Map<TimerOwner, AtomicInteger> running = new ConcurrentHashMap<>();
        all.forEach(owner -> running.put(owner, new AtomicInteger()));
        int threads = 8;
        int perThread = 2_000;
        long firstDue = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        AtomicLong kept = new AtomicLong();
        AtomicLong lastScheduledAt = new AtomicLong();
        CountDownLatch scheduled = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        List<Timer> mine = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            TimerOwner owner = all.get(random.nextInt(owners));
                            long due = firstDue + random.nextLong(TimeUnit.MILLISECONDS.toNanos(300));
                            Timer timer = owner.schedule(Duration.ofNanos(due - System.nanoTime()), e -> {
                                AtomicInteger busy = running.get(owner);
                                if (busy.incrementAndGet() != 1) {
                                    overlaps.incrementAndGet();
                                }
                                ran.get(owner).add(e.deadlineNanos());
                                busy.decrementAndGet();
                            });
                            mine.add(timer);
                            if (random.nextInt(4) == 0) {
                                Timer victim = mine.remove(random.nextInt(mine.size()));
                                assertTrue(victim.cancel(), "a pending one-shot cancels");
                            }
                        }
                        kept.addAndGet(mine.size());
                        lastScheduledAt.accumulateAndGet(System.nanoTime(), Math::max);
                        scheduled.countDown();
                    })
                    .start();
        }
        assertTrue(scheduled.await(30, TimeUnit.SECONDS));
        assertTrue(lastScheduledAt.get() - firstDue < 0, "scheduling overlapped the first deadlines; order is moot");
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> ran.values().stream().mapToInt(List::size).sum() >= kept.get());
        long total = 0;
        for (TimerOwner owner : all) {
            List<Long> order = ran.get(owner);
            synchronized (order) {
                for (int i = 1; i < order.size(); i++) {
                    assertTrue(order.get(i - 1) <= order.get(i), owner + " ran a later deadline before an earlier one");
                }
                total += order.size();
            }
        }
        assertEquals(kept.get(), total, "every timer not cancelled ran exactly once");
        assertEquals(0, overlaps.get(), "an owner ran two handlers at once");
    }

    @Test
    void timersDueInOneWakeUpFireAsOneBatchWithFewerUnparksThanTasks() throws Exception {
        int workers = 4;
        WheelTimerEngine engine = engine(workers, 0);
        int count = 1000;
        CountDownLatch ran = new CountDownLatch(count);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        // The first task holds its worker until a task of the batch runs on another one: the batch spreads only by
        // a hand-off, not because a woken follower happened to get a CPU before one worker had run all 1000 tasks.
        AtomicReference<Thread> firstRunner = new AtomicReference<>();
        CountDownLatch anotherWorker = new CountDownLatch(1);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        for (int i = 0; i < count; i++) {
            engine.arm(new FixedEntry(deadline) {
                @Override
                public void expire() {
                    engine.execute(
                            () -> { // as the front does: each expiry hands over one task
                                Thread me = Thread.currentThread();
                                threads.add(me);
                                if (firstRunner.compareAndSet(null, me)) {
                                    awaitQuietly(anotherWorker);
                                } else if (me != firstRunner.get()) {
                                    anotherWorker.countDown();
                                }
                                long until = System.nanoTime() + 20_000;
                                while (System.nanoTime() - until < 0) {
                                    Thread.onSpinWait();
                                }
                                ran.countDown();
                            });
                }
            });
        }
        long batchesBefore = engine.batches();
        long handoffsBefore = engine.handoffs();
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        assertEquals(count, engine.expired());
        assertEquals(1, engine.batches() - batchesBefore, "timers due at one instant fired in one batch");
        long handoffs = engine.handoffs() - handoffsBefore;
        assertTrue(handoffs <= workers - 1, handoffs + " unparks for one batch of " + count);
        assertTrue(threads.size() > 1, "a batch of independent tasks ran on one worker only");
    }

    @Test
    void aLeaderReplacedByATakeoverBecomesTheWatchdogWithoutAHandOff() throws Exception {
        WheelTimerEngine engine = engine(4, 1000);
        BundleTimerView view = front(engine);
        // The OpenSim grid with 1 ms of slack: 711 timers of 50 ms spread over the period, so a batch falls due about
        // every millisecond and a worker back from a handler often finds the leader parked past its time. Each such
        // takeover leaves the engine without a watchdog until the replaced leader's park returns; that thread then
        // watches, so the producer must not wake a follower for the role as well.
        int timers = 711;
        for (int i = 0; i < timers; i++) {
            view.owner("script-" + i)
                    .scheduleAtFixedRate(Duration.ofNanos(50_000_000L * i / timers), Duration.ofMillis(50), e -> {});
        }
        // warmed up: about two seconds, so that the firing path is compiled and a worker is not stalled by the JIT
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> engine.takeovers() > 500);
        long takeoversBefore = engine.takeovers();
        long handoffsBefore = engine.handoffs();
        long helpsBefore = engine.helps();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> engine.takeovers() - takeoversBefore >= 200);
        long takeovers = engine.takeovers() - takeoversBefore;
        long handoffs = engine.handoffs() - handoffsBefore;
        // A worker descheduled for over help.after.micros (1 ms) in a handler rightly brings help: a hand-off to a
        // follower (helpHandoffs), or a parked thread that comes back (the watchdog, a replaced leader, a follower
        // woken to watch) joining because work is held up (a help join), after which the next producer may wake a
        // follower to watch in its place, one hand-off. So up to one hand-off per help is allowed; the rest would be
        // one hand-off per takeover without the rule. Without it hand-offs come to about the takeovers, so the
        // assertion below fails while helps stay under three quarters of them; at half or more (a host so loaded that
        // helps are many) the margin is gone and the run is skipped, not passed. A change that made helps frequent on
        // a quiet host would show here as a skip: HelpingDispatchTest checks that a batch of short handlers runs on
        // the worker that fired it with no hand-off.
        long helps = engine.helps() - helpsBefore;
        Assumptions.assumeTrue(helps * 2 < takeovers, helps + " helps for " + takeovers + " takeovers: too loaded");
        assertTrue(
                (handoffs - helps) * 4 < takeovers,
                handoffs + " hand-offs (" + helps + " helps) for " + takeovers + " takeovers");
    }

    @Test
    void aDeadlineIsMetWhileAnotherOwnersHandlerHoldsAWorker() throws Exception {
        BundleTimerView view = front(engine(2, 0));
        CountDownLatch blockerRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong blockerThread = new AtomicLong();
        view.owner("blocker").schedule(Duration.ZERO, e -> {
            blockerThread.set(Thread.currentThread().getId());
            blockerRunning.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(blockerRunning.await(10, TimeUnit.SECONDS));
        CountDownLatch ranWhileBlocked = new CountDownLatch(1);
        AtomicLong otherThread = new AtomicLong();
        view.owner("other").schedule(Duration.ofMillis(30), e -> {
            otherThread.set(Thread.currentThread().getId());
            ranWhileBlocked.countDown();
        });
        try {
            assertTrue(ranWhileBlocked.await(10, TimeUnit.SECONDS), "no worker took over waiting for the deadline");
            assertTrue(otherThread.get() != blockerThread.get());
        } finally {
            release.countDown();
        }
    }

    @Test
    void aPeriodicTimerCostsAtMostOneHandOffPerFiring() throws Exception {
        WheelTimerEngine engine = engine(4, 0);
        BundleTimerView view = front(engine);
        int firings = 30;
        CountDownLatch fired = new CountDownLatch(firings);
        AtomicInteger handled = new AtomicInteger();
        long before = engine.signals() + engine.handoffs();
        Timer timer = view.owner("periodic").scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(5), e -> {
            handled.incrementAndGet();
            fired.countDown();
        });
        assertTrue(fired.await(10, TimeUnit.SECONDS));
        timer.cancel();
        // The timer fires on until cancel: every 5 ms this thread is held up after the latch opens is one more
        // firing and its unpark. So compare with the firings counted, read after the unparks: a firing's unpark
        // comes after its handler has counted it (the next period is armed once the handler returns).
        long unparks = engine.signals() + engine.handoffs() - before;
        int counted = handled.get();
        assertTrue(counted >= firings);
        assertTrue(unparks <= counted + 2, unparks + " unparks for " + counted + " firings");
    }

    @Test
    void slackFiresDeadlinesWithinItInOneWakeUpAndNoneEarly() throws Exception {
        long slackMillis = 100;
        WheelTimerEngine slack = engine(1, TimeUnit.MILLISECONDS.toMicros(slackMillis));
        WheelTimerEngine exact = engine(1, 0);
        // counted before arming: the grouped probes fire 150 ms after they are armed, whether or not this thread
        // has got round to reading the count by then
        long slackBatches = slack.batches();
        List<WheelTimerEngineTest.Probe> grouped = probes(slack, 5);
        // 50 ms apart: only a wake-up more than 450 ms late could fire all ten at once
        List<WheelTimerEngineTest.Probe> single = probes(exact, 50);
        for (WheelTimerEngineTest.Probe probe : grouped) {
            assertTrue(probe.fired.await(10, TimeUnit.SECONDS));
        }
        for (WheelTimerEngineTest.Probe probe : single) {
            assertTrue(probe.fired.await(10, TimeUnit.SECONDS));
        }
        long first = grouped.get(0).deadline;
        for (WheelTimerEngineTest.Probe probe : grouped) {
            assertTrue(probe.firedAt - probe.deadline >= 0, "fired early");
            // the engine parks until the first deadline plus the slack less the kernel's own timer slack (at most
            // 50 µs), which the kernel may add to the park; a new engine has measured no late wake-up of its own yet
            assertTrue(
                    probe.firedAt - (first + TimeUnit.MILLISECONDS.toNanos(slackMillis) - 50_000) >= 0,
                    "the wake-up did not wait for the slack");
        }
        assertEquals(1, slack.batches() - slackBatches, "deadlines within the slack fired in one wake-up");
        for (WheelTimerEngineTest.Probe probe : single) {
            assertTrue(probe.firedAt - probe.deadline >= 0, "fired early");
        }
        assertTrue(exact.batches() >= 2, "without slack, deadlines 50 ms apart fired in one wake-up");
    }

    @Test
    void slackPutsAWakeUpOffByWhatIsLeftAfterTheExpectedLatenessButAtLeastHalfTheSlack() {
        long micro = 1_000;
        long slack = 1_000 * micro;
        assertEquals(0, WheelTimerEngine.firingDelay(0, 20 * micro, 300 * micro), "no slack: exact deadlines");
        assertEquals(980 * micro, WheelTimerEngine.firingDelay(slack, 20 * micro, 0), "the kernel's slack comes off");
        assertEquals(800 * micro, WheelTimerEngine.firingDelay(slack, 20 * micro, 200 * micro), "late wake-ups do");
        assertEquals(500 * micro, WheelTimerEngine.firingDelay(slack, 20 * micro, 900 * micro), "never below half");
        assertEquals(5 * micro, WheelTimerEngine.firingDelay(10 * micro, 20 * micro, 0), "a slack below the kernel's");
    }

    @Test
    void theWakeUpLatenessEstimateSettlesAboveMostWakeUpsAndBelowTheRareLateOnes() {
        long micro = 1_000;
        long estimate = 0;
        // as measured on a busy 2-core machine: most wake-ups 75 µs late, one in fifty 400 µs
        for (int round = 0; round < 100; round++) {
            for (int i = 0; i < 49; i++) {
                estimate = WheelTimerEngine.nextWakeLate(estimate, 75 * micro);
            }
            estimate = WheelTimerEngine.nextWakeLate(estimate, 400 * micro);
        }
        assertTrue(estimate > 75 * micro && estimate < 400 * micro, "settled at " + estimate + " ns");
        // nearer the rare late ones (about 240 µs; falls of a thirty-second settled at about 170 µs, which left a 1 ms
        // slack's p99 lateness at about 1 ms)
        assertTrue(estimate > 200 * micro, "settled at " + estimate + " ns, too near the usual wake-ups");
        long settled = estimate;
        // one wake-up 5 ms late moves it a quarter of the way, and the usual ones bring it back down
        estimate = WheelTimerEngine.nextWakeLate(estimate, 5_000 * micro);
        assertEquals(settled + (5_000 * micro - settled) / 4, estimate, 1);
        for (int i = 0; i < 400; i++) {
            estimate = WheelTimerEngine.nextWakeLate(estimate, 75 * micro);
        }
        assertTrue(estimate < settled, "still " + estimate + " ns after 400 usual wake-ups");
    }

    @Test
    void theLatenessTheSlackAllowsForIsMeasuredToTheFirstHandlerOfTheBatch() throws Exception {
        WheelTimerEngine engine = engine(1, 1000);
        // Each batch takes 2 ms to fire before its handler can start, as a large batch on a slow machine would; a
        // park's own return is a few hundred µs late at most even on a busy machine, so only an estimate measured
        // to the handler comes near 2 ms.
        int batches = 20;
        long spinNanos = TimeUnit.MILLISECONDS.toNanos(2);
        CountDownLatch ran = new CountDownLatch(batches);
        long first = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        for (int i = 0; i < batches; i++) {
            engine.arm(new FixedEntry(first + i * TimeUnit.MILLISECONDS.toNanos(5)) {
                @Override
                public void expire() {
                    long until = System.nanoTime() + spinNanos;
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    engine.execute(ran::countDown);
                }
            });
        }
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        // 20 samples of over 2 ms, each moving the estimate a quarter of the way up: above 1.9 ms
        long estimate = engine.wakeLateNanos();
        assertTrue(estimate > TimeUnit.MILLISECONDS.toNanos(1), "estimated " + estimate + " ns");
    }

    @Test
    void slackIsConfigurableAndValidated() {
        WheelTimerEngine engine = engine(1, 0);
        engine.modified(WheelTimerEngineTest.config(1, 0, 1000, 1000));
        assertEquals(new WheelTimerEngine.Settings(1, 0, 1000, 1000), engine.settings());
        engine.modified(WheelTimerEngineTest.config(1, 0, 1000, -1));
        engine.modified(WheelTimerEngineTest.config(1, 0, 1000, 1_000_001));
        assertEquals(new WheelTimerEngine.Settings(1, 0, 1000, 1000), engine.settings(), "invalid slack rejected");
    }

    /** Waits up to 10 s: long enough for any hand-off, and the assertions after it say what was missing. */
    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ten probes {@code apartMillis} apart, the first due in 50 ms. */
    private static List<WheelTimerEngineTest.Probe> probes(WheelTimerEngine engine, long apartMillis) {
        List<WheelTimerEngineTest.Probe> probes = new ArrayList<>();
        long first = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        for (int i = 0; i < 10; i++) {
            WheelTimerEngineTest.Probe probe =
                    new WheelTimerEngineTest.Probe(first + i * TimeUnit.MILLISECONDS.toNanos(apartMillis));
            probes.add(probe);
            assertTrue(engine.arm(probe));
        }
        return probes;
    }
}
