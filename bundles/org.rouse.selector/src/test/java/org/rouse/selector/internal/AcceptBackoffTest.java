package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.AcceptBackoff;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;

/**
 * The acceptor of {@code SelectorService.accept} on the real front and NIO engine over loopback sockets: it drains
 * a storm of sequential connects without SYN retransmit waits, and accept errors back off (one WARN line per burst,
 * no busy loop, accepting resumes).
 */
@Timeout(120)
class AcceptBackoffTest {

    /** Every pending connection is taken per readiness; connect times are measured by {@code Harness selector-storm}. */
    @Test
    void twoThousandSequentialConnectsThroughAcceptAreAllTaken() throws Exception {
        int clients = 2_000;
        try (Rig rig = new Rig()) {
            rig.activeEngine();
            BundleSelectorView view = rig.view();
            ServerSocketChannel server = ServerSocketChannel.open();
            List<SocketChannel> sockets = new ArrayList<>();
            try {
                server.bind(new InetSocketAddress("127.0.0.1", 0), AcceptBackoff.RECOMMENDED_BACKLOG);
                server.configureBlocking(false);
                view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
                for (int i = 0; i < clients; i++) {
                    sockets.add(SocketChannel.open(server.getLocalAddress()));
                }
                // the server channel plus one registration per accepted connection
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> view.statistics().registrations() == clients + 1);
                assertEquals(77L, Rig.call(sockets.get(clients - 1), 77L), "the last connection is served");
            } finally {
                for (SocketChannel socket : sockets) {
                    socket.close();
                }
                server.close();
            }
        }
    }

    @Test
    void acceptErrorsAreLoggedOncePerBurstBackOffAndAcceptingResumes() throws Exception {
        try (Rig rig = new Rig()) {
            rig.activeEngine();
            BundleSelectorView view = rig.view();
            ServerSocketChannel server = rig.server();
            AtomicBoolean failing = new AtomicBoolean(true);
            ConcurrentLinkedQueue<Long> failedAttempts = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> warnings = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<SocketChannel> accepted = new ConcurrentLinkedQueue<>();
            // Only the error source is simulated; the real socket's accept() stands behind it.
            AcceptBackoff backoff = new AcceptBackoff(
                    "test server",
                    () -> {
                        if (failing.get()) {
                            failedAttempts.add(System.nanoTime());
                            throw new IOException("Too many open files");
                        }
                        return server.accept();
                    },
                    (delayMs, task) -> java.util.concurrent.CompletableFuture.delayedExecutor(
                                    delayMs, java.util.concurrent.TimeUnit.MILLISECONDS)
                            .execute(task),
                    warnings::add);
            ChannelRegistration acceptor = view.register(
                    server, SelectionKey.OP_ACCEPT, (reg, ops) -> backoff.drain(reg, accepted::add), Dispatch.INLINE);

            SocketChannel first = rig.connect(server);
            // delays 10 + 20 + 40 + 80 ms between the first five attempts; a busy loop on the still-ready socket
            // would make them within microseconds
            await().atMost(Duration.ofSeconds(10)).until(() -> failedAttempts.size() >= 5);
            List<Long> times = new ArrayList<>(failedAttempts);
            long spanNanos = times.get(4) - times.get(0);
            assertTrue(spanNanos >= 150_000_000L, "5 attempts in " + spanNanos / 1_000 + " us: not backing off");
            assertEquals(1, warnings.size(), "one line per burst: " + warnings);
            assertTrue(warnings.peek().contains("Too many open files"), warnings.peek());
            assertTrue(acceptor.isValid(), "the acceptor stays registered");

            failing.set(false);
            await().atMost(Duration.ofSeconds(5)).until(() -> accepted.size() == 1);
            int attemptsInFirstBurst = failedAttempts.size();
            assertTrue(attemptsInFirstBurst <= 12, attemptsInFirstBurst + " failed attempts: not bounded");
            assertEquals(attemptsInFirstBurst, backoff.failures());

            // accepting at once again: no back-off left over from the burst
            rig.connect(server);
            await().atMost(Duration.ofSeconds(5)).until(() -> accepted.size() == 2);

            failing.set(true);
            rig.connect(server);
            await().atMost(Duration.ofSeconds(10)).until(() -> failedAttempts.size() > attemptsInFirstBurst);
            failing.set(false);
            await().atMost(Duration.ofSeconds(5)).until(() -> accepted.size() == 3);
            assertEquals(2, warnings.size(), "a second burst, a second line: " + warnings);
            assertEquals(2, backoff.bursts());
            assertTrue(first.isConnected());
            for (SocketChannel channel : accepted) {
                channel.close();
            }
        }
    }
}
