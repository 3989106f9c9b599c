package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.lock.LockService;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;

/**
 * The swap soak: the runtime's bundles (both examples included) under load on all three services while a driver
 * updates a random provider bundle every 2 to 5 s, the way an operator types {@code update <id>}: the bundle re-reads
 * its own location.
 *
 * <p>Load: one-shot timers scheduled at about 1,000 per second with random delays (each must fire exactly once), 711
 * periodic timers at 50 ms (the script host's load, lateness recorded per second), 8 threads on one lock checking
 * mutual exclusion (parking briefly every 64 acquisitions), and 8 RESP connections to the RESP example, each INCRementing its own key (a lost or repeated
 * call shows as a wrong reply) and one shared key (a lost update shows as a wrong final count).
 *
 * <p>Not part of the default build, which excludes {@code *SoakIT}. Run it with
 *
 * <pre>
 * mvn -B install -DskipTests &amp;&amp; mvn -B verify -pl itests -Dit.test=SwapSoakIT -Drouse.soak.seconds=600
 * </pre>
 *
 * The report goes to standard output and to {@code itests/target/swap-soak-report.md}.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SwapSoakIT extends RouseTestSupport {

    private static final List<String> PROVIDERS = List.of("org.rouse.timer", "org.rouse.selector", "org.rouse.lock");
    private static final int ONE_SHOTS_PER_SECOND = 1_000;
    private static final int PERIODIC_TIMERS = 711;
    private static final int RESP_CONNECTIONS = 8;

    @Inject
    TimerService timers;

    @Inject
    LockService locks;

    @Inject
    ConfigurationAdmin configAdmin;

    @Test(timeout = 3_600_000)
    public void randomProviderUpdatesUnderLoadLoseNothing() throws Exception {
        long seconds = Long.getLong("rouse.soak.seconds", 600);
        int port = RespServerIT.listenOnFreePort(configAdmin);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        LatenessPerSecond lateness = new LatenessPerSecond(start, (int) seconds + 120);

        List<TimerOwner> periodicOwners = new ArrayList<>();
        for (int i = 0; i < PERIODIC_TIMERS; i++) {
            TimerOwner owner = timers.owner("soak-script-" + i);
            periodicOwners.add(owner);
            owner.scheduleAtFixedRate(
                    Duration.ofMillis(i % 50), Duration.ofMillis(50), e -> lateness.record(e.lateness()));
        }

        int maxOneShots = (int) (seconds + 10) * ONE_SHOTS_PER_SECOND;
        AtomicIntegerArray oneShotRuns = new AtomicIntegerArray(maxOneShots);
        AtomicInteger oneShotsScheduled = new AtomicInteger();
        Thread oneShotLoad =
                new Thread(() -> scheduleOneShots(running, oneShotRuns, oneShotsScheduled, failure), "soak-one-shots");
        oneShotLoad.start();

        Lock lock = locks.lock("soak");
        LockHammer hammer = LockHammer.start(lock, 8, "soak-lock", 50_000);

        AtomicLong respCalls = new AtomicLong();
        AtomicLong sharedIncrements = new AtomicLong();
        CountDownLatch respDone = new CountDownLatch(RESP_CONNECTIONS);
        for (int i = 0; i < RESP_CONNECTIONS; i++) {
            int index = i;
            Thread client = new Thread(
                    () -> respClient(port, index, running, respCalls, sharedIncrements, failure, respDone),
                    "soak-resp-" + i);
            client.setDaemon(true);
            client.start();
        }

        List<Swap> swaps = new ArrayList<>();
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        try {
            while (System.nanoTime() < deadline && failure.get() == null) {
                // Pacing between operator gestures, not a wait for a result.
                TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(2_000, 5_001));
                String provider = PROVIDERS.get(ThreadLocalRandom.current().nextInt(PROVIDERS.size()));
                long swapStart = System.nanoTime();
                bundle(provider).update(); // re-reads the bundle's location, as Gogo's `update <id>`
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> bundle(provider).getState() == Bundle.ACTIVE && engineBack(provider));
                swaps.add(new Swap(provider, swapStart, System.nanoTime()));
            }
        } finally {
            running.set(false);
            oneShotLoad.join(30_000);
            hammer.stop();
            assertTrue("RESP clients finished", respDone.await(30, TimeUnit.SECONDS));
        }

        int scheduled = oneShotsScheduled.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> firedAtLeastOnce(oneShotRuns, scheduled) == scheduled);
        int lost = scheduled - firedAtLeastOnce(oneShotRuns, scheduled);
        int doubled = 0;
        for (int i = 0; i < scheduled; i++) {
            doubled += oneShotRuns.get(i) > 1 ? 1 : 0;
        }
        long sharedFinal;
        try (RespClient resp = new RespClient(port)) {
            sharedFinal = Long.parseLong(String.valueOf(resp.call("GET", "soak:shared")));
        }
        for (TimerOwner owner : periodicOwners) {
            owner.close();
        }

        String report = report(
                seconds,
                swaps,
                scheduled,
                lost,
                doubled,
                respCalls.get(),
                sharedIncrements.get(),
                sharedFinal,
                hammer,
                lateness,
                failure.get());
        System.out.println(report);
        Path out = Paths.get("target", "swap-soak-report.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.UTF_8);

        assertEquals("no RESP call failed", null, failure.get());
        assertEquals("one-shots lost", 0, lost);
        assertEquals("one-shots fired twice", 0, doubled);
        assertEquals("two threads held the lock at once", 0, hammer.violations());
        assertEquals("shared counter equals the successful INCRs", sharedIncrements.get(), sharedFinal);
        assertTrue("at least one swap happened", !swaps.isEmpty());
    }

    private void scheduleOneShots(
            AtomicBoolean running,
            AtomicIntegerArray runs,
            AtomicInteger scheduled,
            AtomicReference<Throwable> failure) {
        TimerOwner owner = timers.owner("soak-one-shots");
        long next = System.nanoTime();
        try {
            while (running.get() && scheduled.get() < runs.length()) {
                int index = scheduled.get();
                owner.schedule(
                        Duration.ofMillis(ThreadLocalRandom.current().nextInt(100)), e -> runs.incrementAndGet(index));
                scheduled.incrementAndGet();
                next += TimeUnit.SECONDS.toNanos(1) / ONE_SHOTS_PER_SECOND;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    private static void respClient(
            int port,
            int index,
            AtomicBoolean running,
            AtomicLong calls,
            AtomicLong sharedIncrements,
            AtomicReference<Throwable> failure,
            CountDownLatch done) {
        try (RespClient resp = new RespClient(port)) {
            String key = "soak:" + index;
            long expected = 0;
            while (running.get()) {
                Object reply = resp.call("INCR", key);
                expected++;
                if (!Long.valueOf(expected).equals(reply)) {
                    throw new AssertionError("connection " + index + ": INCR gave " + reply + ", expected " + expected
                            + " (a call lost or repeated)");
                }
                Object shared = resp.call("INCR", "soak:shared");
                if (!(shared instanceof Long)) {
                    throw new AssertionError("connection " + index + ": INCR soak:shared gave " + shared);
                }
                sharedIncrements.incrementAndGet();
                calls.addAndGet(2);
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        } finally {
            done.countDown();
        }
    }

    /** Whether the front of {@code provider}'s service uses an engine of that provider again. */
    private boolean engineBack(String provider) {
        return switch (provider) {
            case "org.rouse.timer" -> "wheel".equals(timers.statistics().engine());
            case "org.rouse.lock" -> locks.strategies().contains("adaptive");
            default -> bundle(provider).getRegisteredServices() != null;
        };
    }

    private static int firedAtLeastOnce(AtomicIntegerArray runs, int scheduled) {
        int fired = 0;
        for (int i = 0; i < scheduled; i++) {
            fired += runs.get(i) > 0 ? 1 : 0;
        }
        return fired;
    }

    private record Swap(String provider, long startNanos, long endNanos) {}

    private static String report(
            long seconds,
            List<Swap> swaps,
            int scheduled,
            int lost,
            int doubled,
            long respCalls,
            long sharedIncrements,
            long sharedFinal,
            LockHammer hammer,
            LatenessPerSecond lateness,
            Throwable failure) {
        StringBuilder out = new StringBuilder();
        out.append("## Swap soak, ").append(seconds).append(" s\n\n");
        out.append("| provider | updates |\n| --- | ---: |\n");
        for (String provider : PROVIDERS) {
            long count =
                    swaps.stream().filter(s -> s.provider().equals(provider)).count();
            out.append("| ").append(provider).append(" | ").append(count).append(" |\n");
        }
        double longestSwapMs = swaps.stream()
                        .mapToLong(s -> s.endNanos() - s.startNanos())
                        .max()
                        .orElse(0)
                / 1e6;
        out.append(String.format("%n- one-shots: %d scheduled, %d lost, %d fired twice%n", scheduled, lost, doubled));
        out.append(String.format(
                "- RESP: %d calls on %d connections, failure: %s; shared counter %d, successful INCRs %d%n",
                respCalls, RESP_CONNECTIONS, failure == null ? "none" : failure, sharedFinal, sharedIncrements));
        out.append(String.format(
                "- lock: %d acquisitions by 8 threads, %d mutual-exclusion violations%n",
                hammer.acquisitions(), hammer.violations()));
        out.append(String.format("- longest update until the engine was back: %.1f ms%n", longestSwapMs));
        long[] timerSwapSeconds = swaps.stream()
                .filter(s -> s.provider().equals("org.rouse.timer"))
                .mapToLong(s -> lateness.secondOf(s.startNanos()))
                .toArray();
        out.append(String.format(
                "- periodic timer lateness (711 at 50 ms), p99: %.3f ms in seconds with a timer update,"
                        + " %.3f ms in the other seconds; worst p99 of a timer-update second %.3f ms%n",
                lateness.p99Micros(timerSwapSeconds, true) / 1e3,
                lateness.p99Micros(timerSwapSeconds, false) / 1e3,
                lateness.worstP99Micros(timerSwapSeconds) / 1e3));
        return out.toString();
    }

    /**
     * Lateness counts per second of the run in log-linear microsecond buckets (10 µs wide to 1 ms, 100 µs wide to
     * 100 ms, then one overflow bucket), so 10 minutes of 14,220 events per second fit in a few megabytes.
     */
    static final class LatenessPerSecond {
        private static final int BUCKETS = 100 + 990 + 1;
        private final long start;
        private final AtomicLongArray counts;
        private final int seconds;

        LatenessPerSecond(long startNanos, int seconds) {
            this.start = startNanos;
            this.seconds = seconds;
            this.counts = new AtomicLongArray(seconds * BUCKETS);
        }

        int secondOf(long nanos) {
            return (int) Math.min(seconds - 1, Math.max(0, (nanos - start) / 1_000_000_000L));
        }

        void record(Duration late) {
            long micros = Math.max(0, late.toNanos() / 1_000);
            int bucket = micros < 1_000
                    ? (int) (micros / 10)
                    : micros < 100_000 ? 100 + (int) ((micros - 1_000) / 100) : BUCKETS - 1;
            counts.incrementAndGet(secondOf(System.nanoTime()) * BUCKETS + bucket);
        }

        private static long upperMicros(int bucket) {
            return bucket < 100 ? (bucket + 1) * 10L : bucket < BUCKETS - 1 ? 1_000 + (bucket - 99) * 100L : 100_000;
        }

        /** p99 over the seconds in {@code marked} (when {@code inside}) or over all the others. */
        long p99Micros(long[] marked, boolean inside) {
            long[] merged = new long[BUCKETS];
            for (int s = 0; s < seconds; s++) {
                if (contains(marked, s) == inside) {
                    add(merged, s);
                }
            }
            return p99(merged);
        }

        long worstP99Micros(long[] marked) {
            long worst = 0;
            for (long s : marked) {
                long[] one = new long[BUCKETS];
                add(one, (int) s);
                worst = Math.max(worst, p99(one));
            }
            return worst;
        }

        private void add(long[] into, int second) {
            for (int b = 0; b < BUCKETS; b++) {
                into[b] += counts.get(second * BUCKETS + b);
            }
        }

        private static long p99(long[] buckets) {
            long total = 0;
            for (long c : buckets) {
                total += c;
            }
            long rank = (long) Math.ceil(total * 0.99);
            long seen = 0;
            for (int b = 0; b < BUCKETS; b++) {
                seen += buckets[b];
                if (seen >= rank && total > 0) {
                    return upperMicros(b);
                }
            }
            return 0;
        }

        private static boolean contains(long[] values, long value) {
            for (long v : values) {
                if (v == value) {
                    return true;
                }
            }
            return false;
        }
    }
}
