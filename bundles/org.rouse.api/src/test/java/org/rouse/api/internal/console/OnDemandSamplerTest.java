package org.rouse.api.internal.console;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The console sampler's thread exists only while requests come: none before the first, one after it, none once the
 * idle period has passed without a request, one again on the next request, and none after close.
 */
class OnDemandSamplerTest {

    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long IDLE = TimeUnit.SECONDS.toNanos(1);

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theThreadRunsFromTheFirstRequestUntilTheIdlePeriodAndAgainOnTheNext() {
        AtomicInteger starts = new AtomicInteger();
        AtomicInteger samples = new AtomicInteger();
        OnDemandSampler sampler = new OnDemandSampler(starts::incrementAndGet, samples::incrementAndGet, PERIOD, IDLE);
        try {
            assertEquals(0, samplerThreads(), "no thread before the first request");
            assertFalse(sampler.running());

            sampler.touch();
            assertEquals(1, samplerThreads(), "one thread after it");
            await().atMost(Duration.ofSeconds(10)).until(() -> samples.get() >= 3);
            sampler.touch(); // a second request while it runs starts nothing new
            assertEquals(1, samplerThreads());
            assertEquals(1, starts.get());

            await().atMost(Duration.ofSeconds(10)).until(() -> samplerThreads() == 0);
            assertFalse(sampler.running());
            int sampled = samples.get();

            sampler.touch(); // a later request starts it again, after the start hook (the history's reset)
            assertEquals(2, starts.get());
            assertEquals(1, samplerThreads());
            await().atMost(Duration.ofSeconds(10)).until(() -> samples.get() > sampled);
        } finally {
            sampler.close();
        }
        // close returns once the executor has terminated, which its worker signals just before its thread ends
        awaitNoSamplerThread("close leaves no thread");
        sampler.touch();
        assertEquals(0, samplerThreads(), "a request after close starts nothing");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void requestsWithinTheIdlePeriodKeepItRunning() {
        AtomicInteger samples = new AtomicInteger();
        AtomicInteger starts = new AtomicInteger();
        OnDemandSampler sampler = new OnDemandSampler(starts::incrementAndGet, samples::incrementAndGet, PERIOD, IDLE);
        try {
            sampler.touch();
            long until = System.nanoTime() + 3 * IDLE;
            int seen = samples.get();
            while (System.nanoTime() < until) { // a viewer polling: a request per sample, for three idle periods
                int now = seen;
                await().atMost(Duration.ofSeconds(10)).until(() -> samples.get() > now);
                seen = samples.get();
                sampler.touch();
                assertTrue(sampler.running(), "stopped although requests kept coming");
                assertEquals(1, starts.get(), "stopped and restarted although requests kept coming");
            }
            assertEquals(1, samplerThreads());
        } finally {
            sampler.close();
        }
        awaitNoSamplerThread("close leaves no thread");
    }

    /** Waits for the sampler's thread to end: it ends a little after the executor reports termination. */
    private static void awaitNoSamplerThread(String why) {
        await().alias(why).atMost(Duration.ofSeconds(10)).until(() -> samplerThreads() == 0);
    }

    /** Live threads with the sampler's name. */
    static long samplerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals(OnDemandSampler.THREAD_NAME))
                .count();
    }
}
