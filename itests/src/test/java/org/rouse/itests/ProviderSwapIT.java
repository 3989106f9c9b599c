package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.util.tracker.ServiceTracker;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;
import org.rouse.timer.spi.TimerEngine;

/**
 * Provider bundles can be stopped, started and updated under a live consumer: the framework and the other bundles keep
 * running, and the consumer's handles keep working.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ProviderSwapIT extends RouseTestSupport {

    @Inject
    TimerService timers;

    @Test
    public void timerProviderStopStartAndUpdateLoseNoTimer() throws Exception {
        Bundle provider = bundle("org.rouse.timer");
        TimerOwner owner = timers.owner("swap-it");
        int count = 1000;
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        CountDownLatch allFired = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            owner.schedule(Duration.ofMillis(i % 500), e -> {
                if (runs.incrementAndGet(index) == 1) {
                    allFired.countDown();
                }
            });
        }
        AtomicLong periodicRuns = new AtomicLong();
        Timer periodic =
                owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(10), e -> periodicRuns.incrementAndGet());
        TimerEngine before = engine();

        provider.stop();
        assertEquals(
                "no engine while the provider is stopped",
                "none",
                timers.statistics().engine());
        provider.start();
        updateFromJar(provider);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !"none".equals(timers.statistics().engine()));
        assertNotSame("a new engine instance from the new bundle revision", before, engine());

        assertTrue("not fired: " + allFired.getCount(), allFired.await(30, TimeUnit.SECONDS));
        long periodicAfterSwap = periodicRuns.get();
        await().atMost(Duration.ofSeconds(20)).until(() -> periodicRuns.get() > periodicAfterSwap + 5);
        for (int i = 0; i < count; i++) {
            assertEquals("timer " + i + " runs", 1, runs.get(i));
        }
        assertTrue("the consumer's handle still cancels", periodic.cancel());
        for (String name : RouseOptions.ROUSE_BUNDLES) {
            assertEquals(name + " state", Bundle.ACTIVE, bundle(name).getState());
        }
    }

    /**
     * While the provider bundle is updated there is no engine service for a moment; the front's standby engine fires
     * timers meanwhile, so timers due around the update are late by about what they are late anyway.
     */
    @Test
    public void timerLatenessStaysBoundedThroughAProviderUpdate() throws Exception {
        int periodic = 100; // each its own owner, as scripts are
        long periodNanos = TimeUnit.MILLISECONDS.toNanos(20);
        ConcurrentLinkedQueue<long[]> events = new ConcurrentLinkedQueue<>(); // {deadline, lateness}
        List<Timer> handles = new ArrayList<>();
        for (int i = 0; i < periodic; i++) {
            handles.add(timers.owner("update-lateness-" + i)
                    .scheduleAtFixedRate(
                            Duration.ofNanos(periodNanos * i / periodic),
                            Duration.ofNanos(periodNanos),
                            e -> events.add(
                                    new long[] {e.deadlineNanos(), e.lateness().toNanos()})));
        }
        int oneShots = 500; // due over the second that contains the update
        AtomicIntegerArray runs = new AtomicIntegerArray(oneShots);
        CountDownLatch allFired = new CountDownLatch(oneShots);
        // a second without an update first, as the baseline the update's second is compared with
        long baselineStart = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        long baselineEnd = baselineStart + TimeUnit.SECONDS.toNanos(1);
        await().atMost(Duration.ofSeconds(20)).until(() -> events.stream().anyMatch(e -> e[0] - baselineEnd > 0));

        long updateStart = System.nanoTime();
        for (int i = 0; i < oneShots; i++) {
            int index = i;
            timers.owner("update-lateness-" + (i % periodic))
                    .schedule(Duration.ofNanos(TimeUnit.SECONDS.toNanos(1) * i / oneShots), e -> {
                        events.add(new long[] {e.deadlineNanos(), e.lateness().toNanos()});
                        if (runs.incrementAndGet(index) == 1) {
                            allFired.countDown();
                        }
                    });
        }
        updateFromJar(bundle("org.rouse.timer"));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "wheel".equals(timers.statistics().engine()));
        long updateEnd = System.nanoTime();
        assertTrue("not fired: " + allFired.getCount(), allFired.await(30, TimeUnit.SECONDS));
        long windowEnd = Math.max(updateEnd, updateStart + TimeUnit.SECONDS.toNanos(1));
        await().atMost(Duration.ofSeconds(20)).until(() -> events.stream().anyMatch(e -> e[0] - windowEnd > 0));
        for (Timer handle : handles) {
            handle.cancel();
        }

        List<Long> window = latenessDueBetween(events, updateStart, windowEnd);
        List<Long> baseline = latenessDueBetween(events, baselineStart, baselineEnd);
        long p99 = percentile(window, 0.99);
        System.out.printf(
                "ProviderSwapIT: update of org.rouse.timer took %.1f ms; lateness of %d events due in the second"
                        + " containing it: p99 %.3f ms, max %.3f ms; in a second without an update: p99 %.3f ms,"
                        + " max %.3f ms%n",
                (updateEnd - updateStart) / 1e6,
                window.size(),
                p99 / 1e6,
                percentile(window, 1) / 1e6,
                percentile(baseline, 0.99) / 1e6,
                percentile(baseline, 1) / 1e6);
        for (int i = 0; i < oneShots; i++) {
            assertEquals("one-shot " + i + " runs", 1, runs.get(i));
        }
        // A bound that only timers held back for the whole update would break; a loaded machine must not. The figures
        // against a second without an update come from benchmarks/timer-update-lateness.sh.
        assertTrue("p99 lateness around the update " + p99 / 1e6 + " ms", p99 <= TimeUnit.MILLISECONDS.toNanos(250));
    }

    /** The lateness of the recorded events whose deadline lies in {@code [from, to]}, sorted. */
    private static List<Long> latenessDueBetween(Iterable<long[]> events, long from, long to) {
        List<Long> lateness = new ArrayList<>();
        for (long[] event : events) {
            if (event[0] - from >= 0 && event[0] - to <= 0) {
                lateness.add(event[1]);
            }
        }
        Collections.sort(lateness);
        return lateness;
    }

    private static long percentile(List<Long> sorted, double fraction) {
        return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * fraction) - 1));
    }

    @Test
    public void aStoppedConsumerLeavesNoTimersBehind() throws Exception {
        Bundle scripts = bundle("org.rouse.examples.scripts");
        await().atMost(Duration.ofSeconds(20)).until(() -> engine() != null && engine().armedCount() >= 700);
        scripts.stop();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> engine().armedCount() < 10);
        } finally {
            scripts.start();
        }
    }

    private TimerEngine engine() {
        ServiceTracker<TimerEngine, TimerEngine> tracker = new ServiceTracker<>(context, TimerEngine.class, null);
        tracker.open();
        try {
            List<TimerEngine> engines = new ArrayList<>();
            TimerEngine best = tracker.getService();
            if (best != null) {
                engines.add(best);
            }
            return engines.isEmpty() ? null : engines.get(0);
        } finally {
            tracker.close();
        }
    }
}
