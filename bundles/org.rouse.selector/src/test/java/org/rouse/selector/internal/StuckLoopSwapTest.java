package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;

/**
 * A swap whose old engine has a loop stuck in a consumer callback (here an accept handler factory, which runs inline
 * on the loop thread) completes within {@code loop.wait.timeout.ms}; every channel moves and keeps working, and the
 * channel of the stuck callback carries on in the new engine once the callback returns.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StuckLoopSwapTest {

    private static final long BOUND_MS = 300;

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @Test
    void aSwapGivesUpOnALoopStuckInACallbackWithinTheBoundAndLosesNothing() throws Exception {
        NioSelectorEngine old = rig.engine(Rig.settings(600_000, true).withLoopWaitTimeoutMs(BOUND_MS));
        NioSelectorEngine next = rig.engine(Rig.settings(600_000, true));
        rig.core.swapTo(old);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        AtomicInteger connections = new AtomicInteger();
        CountDownLatch factoryBlocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        view.accept(server, SelectionKey.OP_READ, connection -> {
            if (connections.incrementAndGet() == 3) {
                factoryBlocked.countDown();
                release.await(); // the third connection's factory call holds the old engine's only loop
            }
            return new Rig.Echo();
        });
        SocketChannel first = rig.connect(server);
        SocketChannel second = rig.connect(server);
        assertEquals(1L, Rig.call(first, 1L));
        assertEquals(2L, Rig.call(second, 2L));
        SocketChannel third = rig.connect(server);
        assertTrue(factoryBlocked.await(10, TimeUnit.SECONDS));

        try {
            CompletableFuture<Long> swap = new CompletableFuture<>();
            Thread swapper = new Thread(
                    () -> {
                        long start = System.nanoTime();
                        rig.core.swapTo(next);
                        swap.complete(System.nanoTime() - start);
                    },
                    "test-swapper");
            swapper.setDaemon(true);
            swapper.start();
            long tookNanos;
            try {
                tookNanos = swap.get(BOUND_MS + 10_000, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                fail("the swap did not complete while a loop of the old engine was stuck in a callback");
                return;
            }
            assertTrue(
                    tookNanos >= TimeUnit.MILLISECONDS.toNanos(BOUND_MS),
                    "the drain waited for the stuck loop up to the bound: " + tookNanos + " ns");
            assertEquals(next.name(), view.statistics().engine());

            assertEquals(11L, Rig.call(first, 11L), "a moved channel works in the new engine");
            assertEquals(12L, Rig.call(second, 12L), "a moved channel works in the new engine");
            assertEquals(0, old.counters().get("channels"));
        } finally {
            release.countDown();
        }

        // documented fate: the stuck callback's work completes and carries on in the new engine
        assertEquals(3L, Rig.call(third, 3L), "the connection whose factory call was stuck is served");
        SocketChannel fourth = rig.connect(server);
        assertEquals(4L, Rig.call(fourth, 4L), "the server channel re-armed in the new engine");
        assertEquals(13L, Rig.call(first, 13L));
        assertEquals(5, next.counters().get("channels"), "the server and four connections");
        assertEquals(5, view.statistics().registrations());
    }
}
