package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;

/**
 * The adaptive watch (watch.adaptive, on by default): a channel is watched after an upcall only while its calls have
 * been coming within the watch period of the upcall before them (a saturating counter per channel). So a connection
 * that makes one call, or calls less often than the period, never holds a thread watching it, a sequence of calls is
 * watched from its second call on, and chains of calls with pauses between them stay watched. Every engine has a
 * 10-minute select timeout, so a re-arm that failed to wake the loop would hang the test.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AdaptiveWatchTest {

    /**
     * The watch period of the tests that space their calls. Back-to-back calls must come within it even on a busy
     * 2-core host, where a re-arm's p99 reached 0.9 ms: with 1 ms, one such call in a few came late and cost a watch.
     */
    private static final long PERIOD_MICROS = 5_000;

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    private NioSelectorEngine engine(boolean adaptive, long periodMicros) {
        NioSelectorEngine engine = rig.engine(Rig.poolPathSettings(600_000, true)
                .withWatchPeriodMicros(periodMicros)
                .withWatchAdaptive(adaptive));
        rig.core.swapTo(engine);
        return engine;
    }

    private ServerSocketChannel echoServer() throws IOException {
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
        return server;
    }

    private static long counter(NioSelectorEngine engine, String name) {
        return engine.counters().get(name);
    }

    /** The upcalls that have ended, watched or not (a hit ends in the next upcall). */
    private static long ended(NioSelectorEngine engine) {
        return counter(engine, "watch.skipped")
                + counter(engine, "watch.unavailable")
                + counter(engine, "watch.misses")
                + counter(engine, "watch.hits");
    }

    /** Returns once {@code nanos} nanoseconds have passed: the idle time between two calls of a slow peer. */
    private static void idleFor(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left; (left = until - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Makes {@code chains} chains of {@code length} calls back to back; after each chain waits until its last upcall has
     * ended (watched or not), then stays idle for five watch periods, as a peer that thinks between chains.
     */
    private static void chainsWithPauses(NioSelectorEngine engine, SocketChannel client, int chains, int length)
            throws IOException {
        long pause = TimeUnit.MICROSECONDS.toNanos(PERIOD_MICROS) * 5;
        long upcallsBefore = ended(engine);
        for (int c = 0; c < chains; c++) {
            for (long i = 0; i < length; i++) {
                assertEquals(i, Rig.call(client, i));
            }
            long upcalls = upcallsBefore + (long) (c + 1) * length;
            await().until(() -> ended(engine) == upcalls); // the pause starts after the chain's last upcall
            idleFor(pause);
        }
    }

    @Test
    void connectionsThatMakeOneCallEachAreNeverWatched() throws Exception {
        NioSelectorEngine engine = engine(true, 100_000); // a 100 ms watch after each would show in the misses
        ServerSocketChannel server = echoServer();

        for (long i = 0; i < 50; i++) { // a reconnect storm: connect, one call, next connection
            assertEquals(i, Rig.call(rig.connect(server), i));
        }

        await().until(() -> counter(engine, "watch.skipped") == 50);
        assertEquals(0L, counter(engine, "watch.misses"), "no thread held watching a connection: " + engine.counters());
        assertEquals(0L, counter(engine, "watch.hits"));
    }

    @Test
    void aSequenceOfCallsIsWatchedFromItsSecondCallOn() throws Exception {
        NioSelectorEngine engine = engine(true, 100_000);
        ServerSocketChannel server = echoServer();
        // From the third call on the watching thread serves each; an end that finds no spare worker at that moment
        // (the pool's snapshot, briefly false around a loop hand-over) re-arms instead, counted neither way. How often
        // depends on the host (CI on an EPYC host saw 34 hits and 15 re-arms, an Intel host 47 and 2), so the test asks
        // that most ends are watched.
        inOneOfFiveSequences(
                server, "from the third call on the watching thread serves most, in none of five sequences", client -> {
                    long skippedBefore = counter(engine, "watch.skipped");
                    long hitsBefore = counter(engine, "watch.hits");
                    long missesBefore = counter(engine, "watch.misses");
                    long endedBefore = ended(engine);

                    for (long i = 0; i < 50; i++) { // each call sent as soon as the last reply came: well within 100 ms
                        assertEquals(i, Rig.call(client, i));
                    }

                    assertEquals(
                            1L,
                            counter(engine, "watch.skipped") - skippedBefore,
                            "only the first upcall's end was not watched");
                    long hits = counter(engine, "watch.hits") - hitsBefore;
                    // The client has its last reply before that upcall's end: its watch waits out the period, since no
                    // call follows, and is counted a miss only then. Every other end was followed by a call within the
                    // period.
                    await().atMost(10, TimeUnit.SECONDS).until(() -> ended(engine) == endedBefore + 50);
                    assertTrue(
                            counter(engine, "watch.misses") - missesBefore <= 1,
                            "a watched sequence never waits out the period, only its last end may: "
                                    + engine.counters());
                    return hits >= 25 ? null : hits + " hits, " + engine.counters();
                });
    }

    @Test
    void callsFurtherApartThanThePeriodAreNotWatchedAndACloserSequenceEarnsTheWatchBack() throws Exception {
        NioSelectorEngine engine = engine(true, PERIOD_MICROS);
        ServerSocketChannel server = echoServer();
        // A stall longer than the period turns a watch into a miss or, while the score climbs, an end into a skipped
        // one.
        inOneOfFiveSequences(
                server,
                "calls within the period did not earn the watch back in any sequence (a stall or a busy pool can cost"
                        + " one)",
                client -> {
                    long skippedBefore = counter(engine, "watch.skipped");
                    long missesBefore = counter(engine, "watch.misses");
                    chainsWithPauses(engine, client, 10, 1); // single calls, each five periods after the last

                    assertEquals(
                            10L,
                            counter(engine, "watch.skipped") - skippedBefore,
                            "no call came within the period: " + engine.counters());
                    assertEquals(missesBefore, counter(engine, "watch.misses"));

                    long endedBefore = ended(engine);
                    long hitsBefore = counter(engine, "watch.hits");
                    long unavailableBefore = counter(engine, "watch.unavailable");
                    long missesBeforeCalls = counter(engine, "watch.misses");
                    for (long i = 0; i < 30; i++) { // back to back again
                        assertEquals(i, Rig.call(client, i));
                    }
                    await().atMost(10, TimeUnit.SECONDS).until(() -> ended(engine) == endedBefore + 30);
                    long hits = counter(engine, "watch.hits") - hitsBefore;
                    long unavailable = counter(engine, "watch.unavailable") - unavailableBefore;
                    // the last end's watch always misses
                    long misses = counter(engine, "watch.misses") - missesBeforeCalls;
                    // the first of them came late (no change), the next two within the period: watched from the
                    // third on, so 27 hits; a client stalled while the score still climbs adds a skipped end instead
                    // of a miss
                    return unavailable == 0 && misses <= 1 && hits >= 26
                            ? null
                            : "hits " + hits + ", unavailable " + unavailable + ", misses " + misses + " of 30 ends; "
                                    + engine.counters();
                });
    }

    /** One sequence of calls on a new connection: null if it showed what the test asks, else what it showed. */
    @FunctionalInterface
    private interface Sequence {
        String shortfall(SocketChannel client) throws Exception;
    }

    /**
     * Runs {@code sequence} on a new connection to {@code server} until one shows what the test asks, at most five
     * times, and fails with {@code failure} and the last shortfall if none does. A stall of the client or the server
     * (GC, a busy 2-core host) or a moment with no spare worker costs the next ends of a sequence their watch, so one
     * sequence falling short proves nothing; a watch that is never given or earned back falls short in all five. A
     * sequence that hangs is not retried: its await throws after 10 s, within the class's 30 s timeout. Each
     * connection stays open: its close would be one more upcall end, counted in the next sequence.
     */
    private void inOneOfFiveSequences(ServerSocketChannel server, String failure, Sequence sequence) throws Exception {
        String shortfall = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            shortfall = sequence.shortfall(rig.connect(server));
            if (shortfall == null) {
                return;
            }
        }
        fail(failure + "; the last: " + shortfall);
    }

    @Test
    void chainsOfCallsWithPausesLongerThanThePeriodStayWatched() throws Exception {
        NioSelectorEngine engine = engine(true, PERIOD_MICROS);
        SocketChannel client = rig.connect(echoServer());
        int chains = 10;
        int chain = 5;

        chainsWithPauses(engine, client, chains, chain); // each chain's last watch misses

        // Ideally: only the very first end unwatched, one miss per chain (at its end), every other end a hit (39). On a
        // busy 2-core host a call inside a chain now and then comes later than the period, which adds a miss and can
        // cost the next end its watch. If a chain's final miss cost the next chain its watch, most ends would go
        // unwatched (skipped about 40, hits about 0).
        String counters = " " + engine.counters();
        assertTrue(counter(engine, "watch.skipped") <= 5, "almost only the very first upcall unwatched:" + counters);
        assertTrue(counter(engine, "watch.misses") >= chains, "a miss per chain, at its end:" + counters);
        assertTrue(counter(engine, "watch.hits") >= 30, "the chains stay watched after each pause:" + counters);
    }

    @Test
    void withTheAdaptiveWatchOffEveryUpcallEndsInAWatch() throws Exception {
        NioSelectorEngine engine = engine(false, PERIOD_MICROS);
        SocketChannel client = rig.connect(echoServer());

        chainsWithPauses(engine, client, 10, 1);

        assertEquals(0L, counter(engine, "watch.skipped"));
        assertEquals(
                10L, counter(engine, "watch.misses"), "each watch waited the period in vain: " + engine.counters());
    }
}
