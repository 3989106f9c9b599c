package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The take-over under stress: a bound of a few microseconds, so that the standby's CAS (RUNNING to TAKEN) races the
 * holder's own end of the upcall (RUNNING to IDLE) on a large share of the upcalls, and channels go to the pool and
 * come back all the time. Handlers busy-spin now and then for longer than the bound (work, not a wait). Whatever
 * wins each race, no call may be lost or answered out of order, no channel may run two upcalls at once, and only one
 * thread may select.
 * {@link LoopTakeoverTest} checks each path on its own; this checks them interleaved.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoopTakeoverStressTest {

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @ParameterizedTest(name = "take-over after {0} µs")
    @ValueSource(longs = {2, 20, 100})
    void racingTakeOversLoseNoCallAndNeverRunTwoUpcallsOfAChannelAtOnce(long takeoverAfterMicros) throws Exception {
        NioSelectorEngine engine = rig.activeEngineWithStandby(Rig.settings(600_000, true)
                .withLoopTakeoverAfterMicros(takeoverAfterMicros)
                .withWatchPeriodMicros(0));
        List<SlowNowAndThenEcho> handlers = new CopyOnWriteArrayList<>();
        ServerSocketChannel server = rig.server();
        rig.view().accept(server, SelectionKey.OP_READ, connection -> {
            SlowNowAndThenEcho echo = new SlowNowAndThenEcho(3, LoopTakeoverStressTest::spinPastTheBounds);
            handlers.add(echo);
            return echo;
        });
        int connections = 64;
        int calls = 200;

        rig.callFromEach(server, connections, calls); // every reply its own request's echo, in order

        assertEquals(connections, handlers.size());
        for (SlowNowAndThenEcho handler : handlers) {
            assertEquals(0, handler.overlaps.get(), "two upcalls of one channel at once");
            assertEquals(calls, handler.calls.get());
        }
        assertTrue(engine.counters().get("loop.takeovers") >= 10, "the take-over path ran: " + engine.counters());
        // Only the holder selects. A thread that lost the loop but went on as if it held it would select beside the
        // new holder: one of them wakes with nothing selected, again and again, until the spin detector rebuilds
        // the selector (seen with the holder's end of an upcall made a plain write instead of a CAS).
        assertEquals(0L, engine.counters().get("rebuilds"), "two threads selected at once: " + engine.counters());
        assertTrue(engine.counters().get("loop.upcalls") >= connections, "calls ran on the loop: " + engine.counters());
    }

    /** Busy work inside an upcall, longer than two of each bound (a take-over comes one to two bounds in): 300 µs. */
    private static void spinPastTheBounds() {
        long end = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(300);
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
