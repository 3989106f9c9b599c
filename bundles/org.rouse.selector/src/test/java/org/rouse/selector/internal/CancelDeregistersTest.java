package org.rouse.selector.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;

/**
 * {@link ChannelRegistration#cancel()} deregisters: when it returns, the channel's keys are cancelled and flushed,
 * so the channel can be put into blocking mode at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelDeregistersTest {

    private static final int TRIES = 200;
    private static final long CANCEL = 0xCA_4CE1L;

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @Test
    void blockingModeRightAfterCancelNeverThrows() throws Exception {
        rig.activeEngine();
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        List<Integer> failures = new ArrayList<>();
        for (int i = 0; i < TRIES; i++) {
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
                SocketChannel accepted = acceptOne(server);
                accepted.configureBlocking(false);
                ChannelRegistration registration = view.register(accepted, SelectionKey.OP_READ, (r, ops) -> {});
                awaitLoopRound(view); // the loop has registered the channel: cancel must undo a real key
                registration.cancel();
                assertFalse(registration.isValid());
                try {
                    accepted.configureBlocking(true);
                } catch (IllegalBlockingModeException e) {
                    failures.add(i);
                }
                accepted.close();
            }
        }
        assertTrue(
                failures.isEmpty(),
                failures.size() + " of " + TRIES + " tries threw IllegalBlockingModeException, e.g. try "
                        + (failures.isEmpty() ? "" : failures.get(0)));
        assertEquals(0, view.statistics().registrations());
    }

    @Test
    void cancelInsideItsOwnPoolUpcallDeregistersBeforeReturningEvenFromTheWatchSelector() throws Exception {
        // a 1 s blocking watch: the second call is found by the worker's private selector, which then keeps the
        // channel registered while it runs that upcall
        NioSelectorEngine engine = rig.engine(Rig.poolPathSettings(600_000, true)
                .withWatchPeriodMicros(1_000_000)
                .withWatchAdaptive(false));
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        AtomicReference<Object> outcome = new AtomicReference<>();
        view.accept(server, SelectionKey.OP_READ, connection -> (registration, ops) -> {
            ByteBuffer in = ByteBuffer.allocate(8);
            if (connection.read(in) < 0) {
                registration.close();
                return;
            }
            if (in.flip().getLong() == CANCEL) {
                registration.cancel();
                try {
                    connection.configureBlocking(true);
                    outcome.set("blocking");
                } catch (RuntimeException e) {
                    outcome.set(e);
                }
            }
            connection.write(in.rewind());
        });
        SocketChannel client = rig.connect(server);
        assertEquals(1L, Rig.call(client, 1L));
        assertEquals(CANCEL, Rig.call(client, CANCEL));

        assertTrue(engine.counters().get("watch.hits") >= 1, "the second call was served from the watch");
        assertEquals("blocking", outcome.get());
        assertEquals(1, view.statistics().registrations(), "only the server is left");
    }

    @Test
    void cancelInsideAnInlineHandlerOnTheLoopThreadDeregistersBeforeReturning() throws Exception {
        rig.activeEngine();
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        SocketChannel client = rig.connect(server);
        SocketChannel accepted = acceptOne(server);
        accepted.configureBlocking(false);
        AtomicReference<Object> outcome = new AtomicReference<>();
        CountDownLatch handled = new CountDownLatch(1);
        view.register(
                accepted,
                SelectionKey.OP_READ,
                (registration, ops) -> {
                    registration.cancel();
                    try {
                        accepted.configureBlocking(true);
                        outcome.set(Thread.currentThread().getName());
                    } catch (RuntimeException e) {
                        outcome.set(e);
                    } finally {
                        handled.countDown();
                    }
                },
                Dispatch.INLINE);
        client.write(ByteBuffer.wrap(new byte[] {1}));

        assertTrue(handled.await(10, TimeUnit.SECONDS));
        assertEquals("rouse-selector-loop-0", outcome.get());
    }

    @Test
    void cancelFromAnotherThreadNeverWaitsForARunningUpcallAndItsStageCompletesWhenTheUpcallLetsGo() throws Exception {
        NioSelectorEngine engine = rig.engine(Rig.poolPathSettings(600_000, true)
                .withWatchPeriodMicros(1_000_000)
                .withWatchAdaptive(false));
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        CountDownLatch inSecondCall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<ChannelRegistration> held = new AtomicReference<>();
        view.accept(server, SelectionKey.OP_READ, connection -> (registration, ops) -> {
            ByteBuffer in = ByteBuffer.allocate(8);
            if (connection.read(in) < 0) {
                registration.close();
                return;
            }
            if (in.flip().getLong() == 2L) {
                held.set(registration);
                inSecondCall.countDown();
                release.await(); // blocks the upcall, found by the watch, with its channel in the watch selector
            }
            connection.write(in.rewind());
        });
        SocketChannel client = rig.connect(server);
        assertEquals(1L, Rig.call(client, 1L));
        client.write(ByteBuffer.allocate(8).putLong(2L).flip());
        assertTrue(inSecondCall.await(10, TimeUnit.SECONDS));
        assertEquals(1L, engine.counters().get("watch.hits"), "the blocked call was found by the watch");
        ChannelRegistration registration = held.get();
        SocketChannel connection = (SocketChannel) registration.channel();

        CompletableFuture<Void> left;
        try {
            left = registration.deregister().toCompletableFuture(); // returns although the upcall is blocked
            assertFalse(registration.isValid());
            assertFalse(left.isDone(), "the worker's watch selector still holds the channel");
            assertThrows(IllegalBlockingModeException.class, () -> connection.configureBlocking(true));
        } finally {
            release.countDown();
        }
        left.get(10, TimeUnit.SECONDS);
        connection.configureBlocking(true);
        assertTrue(registration.deregister().toCompletableFuture().isDone(), "a later call: the same completion");
    }

    /** Returns once the loop has run everything queued before (its task queue is FIFO). */
    private static void awaitLoopRound(BundleSelectorView view) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        view.execute(ran::countDown);
        assertTrue(ran.await(10, TimeUnit.SECONDS), "the loop ran the task");
    }

    private static SocketChannel acceptOne(ServerSocketChannel server) throws Exception {
        // the server is non-blocking: the connection is queued once the client's connect returned
        SocketChannel accepted;
        while ((accepted = server.accept()) == null) {
            Thread.onSpinWait();
        }
        return accepted;
    }
}
