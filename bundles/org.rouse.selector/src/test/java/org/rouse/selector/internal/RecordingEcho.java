package org.rouse.selector.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;

/** Echoes, and records the threads its upcalls ran on; a request of {@code BLOCK} blocks until released. */
final class RecordingEcho extends Rig.Echo {
    static final long BLOCK = Long.MIN_VALUE;
    static final long INTERRUPT = Long.MIN_VALUE + 1;
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    final CountDownLatch blocking = new CountDownLatch(1);
    final CountDownLatch release;
    /** The registration of its last upcall. */
    volatile ChannelRegistration registration;

    RecordingEcho(CountDownLatch release) {
        this.release = release;
    }

    @Override
    public void onReady(ChannelRegistration registration, int readyOps) throws IOException {
        if (inside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        try {
            threads.add(Thread.currentThread().getName());
            this.registration = registration;
            SocketChannel channel = (SocketChannel) registration.channel();
            ByteBuffer request = ByteBuffer.allocate(8);
            int read = channel.read(request);
            if (read < 0) {
                registration.close();
                return;
            }
            if (read == 8 && request.getLong(0) == INTERRUPT) {
                Thread.currentThread().interrupt(); // a handler that leaves its interrupt flag set
            }
            if (read == 8 && request.getLong(0) == BLOCK) {
                blocking.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            request.flip();
            while (request.hasRemaining()) {
                channel.write(request);
            }
        } finally {
            inside.decrementAndGet();
        }
    }

    /** A listening socket whose connections each get a new RecordingEcho, added to {@code handlers}. */
    static ServerSocketChannel server(
            Rig rig, BundleSelectorView view, List<RecordingEcho> handlers, CountDownLatch release) throws IOException {
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> {
            RecordingEcho echo = new RecordingEcho(release);
            handlers.add(echo);
            return echo;
        });
        return server;
    }

    /** Waits up to 30 s until one of the handlers is blocked in its upcall (the accept may not have run yet). */
    static void awaitBlocking(List<RecordingEcho> handlers) {
        Awaitility.await("the blocking call reaching its handler")
                .atMost(Duration.ofSeconds(30))
                .until(() -> handlers.stream().anyMatch(handler -> handler.blocking.getCount() == 0));
    }
}
