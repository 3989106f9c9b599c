package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;

/**
 * How the pool grows, through the engine with real sockets on loopback: a steady set of connections calling back to
 * back gets one worker per connection in its first burst and none in later ones, and a handler that blocks forever
 * holds up the other connections for no longer than a starvation bound.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolGrowthTest {

    private final Rig rig = new Rig();
    private final ExecutorService clients = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() throws Exception {
        clients.shutdownNow();
        rig.close();
    }

    private NioSelectorEngine engine(EngineSettings settings) {
        NioSelectorEngine engine = rig.engine(settings);
        rig.core.swapTo(engine);
        return engine;
    }

    private static long counter(NioSelectorEngine engine, String name) {
        return engine.counters().get(name);
    }

    /** Every client makes {@code calls} echo calls back to back, all starting together; returns the slowest (ns). */
    private long burst(List<SocketChannel> connections, int calls) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Long>> results = new ArrayList<>();
        for (SocketChannel connection : connections) {
            results.add(clients.submit(() -> {
                go.await();
                long slowest = 0;
                for (long i = 0; i < calls; i++) {
                    long start = System.nanoTime();
                    assertEquals(i, Rig.call(connection, i));
                    slowest = Math.max(slowest, System.nanoTime() - start);
                }
                return slowest;
            }));
        }
        go.countDown();
        long slowest = 0;
        for (Future<Long> result : results) {
            slowest = Math.max(slowest, result.get(30, TimeUnit.SECONDS));
        }
        return slowest;
    }

    private static List<SocketChannel> connect(Rig rig, ServerSocketChannel server, int count) throws IOException {
        List<SocketChannel> connections = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            connections.add(rig.connect(server));
        }
        return connections;
    }

    @Test
    void aSteadySetOfConnectionsGetsOneWorkerEachAndLaterBurstsStartNone() throws Exception {
        // a grace (1 s) long enough that a loaded build machine's scheduling pauses never reach it: every thread here
        // is started for the recently active channels, none because an upcall waited. Were the pool to grow only
        // after waits, it would stay near its two core threads and the await for sixteen below would fail
        NioSelectorEngine engine = engine(EngineSettings.DEFAULTS
                .withLoopTakeoverAfterMicros(0)
                .withPool(2, 64, 60)
                .withGrowAfterMicros(1_000_000));
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
        int connections = 16;
        List<SocketChannel> clientsConnections = connect(rig, server, connections);

        burst(clientsConnections, 300); // the first burst: sixteen connections calling back to back
        // one worker per connection (and no more), so each can keep watching its own connection between calls
        await().atMost(Duration.ofSeconds(10)).until(() -> counter(engine, "pool.threads") == connections);
        long created = counter(engine, "pool.threads.created");
        assertEquals(connections, created, "one worker per connection: " + engine.counters());

        for (int later = 0; later < 3; later++) {
            // idle between bursts: every worker parks (none retires: the idle timeout is 60 s)
            await().during(Duration.ofMillis(100))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> counter(engine, "pool.queued") == 0 && counter(engine, "watch.active") == 0);
            burst(clientsConnections, 300);
            assertEquals(
                    created,
                    counter(engine, "pool.threads.created"),
                    "burst " + (later + 2) + " started threads: " + engine.counters());
        }
        assertEquals(0L, counter(engine, "pool.threads.grown.after.wait"));
        assertTrue(
                counter(engine, "watch.hits") > counter(engine, "pool.completed"),
                "most calls were served by the worker watching their connection: " + engine.counters());
    }

    @Test
    void aHandlerBlockedForeverDoesNotHoldUpOtherConnectionsBeyondTheStarvationBound() throws Exception {
        // the defaults' grace (2 ms), a small pool so the blocked handlers hold most of it
        NioSelectorEngine engine =
                engine(EngineSettings.DEFAULTS.withLoopTakeoverAfterMicros(0).withPool(1, 8, 60));
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(2);
        BundleSelectorView view = rig.view();
        ServerSocketChannel blockingServer = rig.server();
        view.accept(blockingServer, SelectionKey.OP_READ, connection -> (ChannelRegistration registration, int ops) -> {
            blocked.countDown();
            try {
                never.await(); // until the test ends
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ServerSocketChannel echoServer = rig.server();
        view.accept(echoServer, SelectionKey.OP_READ, connection -> new Rig.Echo());
        List<SocketChannel> echoes = connect(rig, echoServer, 8);
        for (SocketChannel stuck : connect(rig, blockingServer, 2)) {
            stuck.write(ByteBuffer.allocate(8).putLong(1).flip());
        }
        assertTrue(blocked.await(10, TimeUnit.SECONDS), "two workers are blocked for good");

        try {
            long slowest = burst(echoes, 200);

            // a starvation bound, not a speed claim: far above the grace, far below "waits for the blocked ones"
            assertTrue(slowest < TimeUnit.SECONDS.toNanos(2), "slowest call " + slowest / 1000 + " µs");
            assertTrue(counter(engine, "pool.threads") <= 8, "never beyond the maximum");
        } finally {
            never.countDown();
        }
    }
}
