package org.rouse.examples.resp.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Accepting at line rate on real loopback sockets: the listen backlog absorbs a storm while the acceptor is busy,
 * sequential connects never wait for a SYN retransmission, and accept errors back off instead of spinning.
 */
@Timeout(120)
class RespAcceptTest {

    /** Far below a SYN retransmission (1 s on Linux), far above a loopback connect on a loaded machine. */
    private static final int CONNECT_TIMEOUT_MS = 500;

    @Test
    void aStormWhileTheAcceptorIsBusyIsQueuedByTheBacklogNotDropped() throws Exception {
        int clients = 600; // well above the JDK's default backlog of 50, below the default listen.backlog of 1024
        try (RespRig rig = new RespRig()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean first = new AtomicBoolean(true);
            // The acceptor (on the loop thread) is held on its first readiness, as by a GC pause or a busy loop:
            // every connection of the storm must wait in the kernel's accept queue meanwhile.
            rig.server.wrapAcceptSource(source -> () -> {
                if (first.compareAndSet(true, false)) {
                    awaitUninterruptibly(release);
                }
                return source.accept();
            });
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < clients; i++) {
                    Socket socket = new Socket();
                    sockets.add(socket);
                    // a dropped SYN would make this time out instead of waiting for the retransmission
                    socket.connect(new InetSocketAddress("127.0.0.1", rig.port()), CONNECT_TIMEOUT_MS);
                }
                release.countDown();
                await().atMost(Duration.ofSeconds(30)).until(() -> rig.server.connections() == clients);
                Socket last = sockets.get(clients - 1);
                last.setSoTimeout(10_000);
                last.getOutputStream().write("PING\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                assertEquals('+', last.getInputStream().read(), "the last connection of the storm is served");
            } finally {
                release.countDown();
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        }
    }

    /**
     * Every pending connection is taken per readiness: 2,000 connects in a row all become connections. How long they
     * take (and whether any waited for a SYN retransmit) is measured by {@code Harness selector-storm}, not here: a
     * cold or loaded JVM accepts more slowly than the kernel completes handshakes.
     */
    @Test
    void twoThousandSequentialConnectsAreAllAccepted() throws Exception {
        int clients = 2_000;
        try (RespRig rig = new RespRig()) {
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < clients; i++) {
                    Socket socket = new Socket();
                    sockets.add(socket);
                    socket.connect(new InetSocketAddress("127.0.0.1", rig.port()), 5_000);
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> rig.server.connections() == clients);
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void acceptErrorsBackOffLogOncePerBurstAndAcceptingResumes() throws Exception {
        try (RespRig rig = new RespRig()) {
            AtomicBoolean failing = new AtomicBoolean(true);
            ConcurrentLinkedQueue<Long> failedAttempts = new ConcurrentLinkedQueue<>();
            // The error source only: the server's own socket behind it, as if the process were out of descriptors.
            rig.server.wrapAcceptSource(source -> () -> {
                if (failing.get()) {
                    failedAttempts.add(System.nanoTime());
                    throw new IOException("Too many open files");
                }
                return source.accept();
            });
            try (RawClient first = rig.connect()) {
                // delays 10, 20, 40, 80 ms between the first five attempts: at least 150 ms, where a busy loop on
                // the still-ready socket would make thousands of attempts in that time
                await().atMost(Duration.ofSeconds(10)).until(() -> failedAttempts.size() >= 5);
                List<Long> times = new ArrayList<>(failedAttempts);
                long spanNanos = times.get(4) - times.get(0);
                assertTrue(spanNanos >= 150_000_000L, "5 attempts in " + spanNanos / 1_000 + " us: not backing off");
                assertEquals(1, rig.server.acceptFailureBursts(), "one burst, one log line");
                assertEquals(0, rig.server.connections());

                failing.set(false);
                first.send("PING\r\n");
                assertEquals("+PONG", first.readLine(), "accepting resumed after the burst");
                int attemptsInFirstBurst = failedAttempts.size();
                assertTrue(attemptsInFirstBurst <= 12, attemptsInFirstBurst + " failed attempts: not bounded");

                failing.set(true);
                try (RawClient second = rig.connect()) {
                    await().atMost(Duration.ofSeconds(10)).until(() -> failedAttempts.size() > attemptsInFirstBurst);
                    failing.set(false);
                    second.send("PING\r\n");
                    assertEquals("+PONG", second.readLine());
                    assertEquals(2, rig.server.acceptFailureBursts(), "a new burst after an accept: logged again");
                    assertEquals("+PONG", pingAgain(first));
                }
            }
        }
    }

    private static String pingAgain(RawClient client) throws IOException {
        client.send("PING\r\n");
        return client.readLine();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
