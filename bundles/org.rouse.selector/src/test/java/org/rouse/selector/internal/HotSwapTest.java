package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;

/** Channels move between engines under load without a failed call or a closed channel. */
class HotSwapTest {

    private static final int CONNECTIONS = 16;

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void connectionsKeepWorkingWhileTheEngineIsSwappedBackAndForth() throws Exception {
        NioSelectorEngine a = rig.engine(Rig.settings(600_000, true));
        NioSelectorEngine b = rig.engine(Rig.settings(600_000, true));
        rig.core.swapTo(a);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        List<Rig.Echo> handlers = new CopyOnWriteArrayList<>();
        view.accept(server, SelectionKey.OP_READ, connection -> {
            Rig.Echo echo = new Rig.Echo();
            handlers.add(echo);
            return echo;
        });
        List<SocketChannel> clients = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            clients.add(rig.connect(server));
        }
        AtomicLong total = new AtomicLong();
        AtomicLongArray perClient = new AtomicLongArray(CONNECTIONS);
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            int id = i;
            Thread caller = new Thread(
                    () -> {
                        try {
                            for (long n = 0; running.get(); n++) {
                                long request = ((long) id << 40) | n;
                                long reply = Rig.call(clients.get(id), request);
                                if (reply != request) {
                                    throw new AssertionError("sent " + request + ", got " + reply);
                                }
                                perClient.incrementAndGet(id);
                                total.incrementAndGet();
                            }
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                    },
                    "caller-" + id);
            callers.add(caller);
            caller.start();
        }

        try {
            awaitProgress(total, failures);
            Object[] sequence = {b, a, null, b, a, b, a};
            for (Object next : sequence) {
                rig.core.swapTo((NioSelectorEngine) next);
                if (next != null) {
                    assertEquals(
                            ((NioSelectorEngine) next).name(), view.statistics().engine());
                    awaitProgress(total, failures);
                }
            }
        } finally {
            running.set(false); // each caller finishes its call in flight and stops
            for (Thread caller : callers) {
                caller.join();
            }
        }

        assertTrue(failures.isEmpty(), () -> "calls failed: " + failures);
        assertEquals(CONNECTIONS, handlers.size());
        assertTrue(handlers.stream().noneMatch(h -> h.closed), "no channel closed");
        for (int i = 0; i < CONNECTIONS; i++) {
            assertTrue(perClient.get(i) > 0, "client " + i + " made calls");
        }
        assertEquals(CONNECTIONS + 1, view.statistics().registrations());
    }

    /** Waits until every caller together made another 200 calls through the engine now active. */
    private static void awaitProgress(AtomicLong total, Queue<Throwable> failures) {
        long start = total.get();
        await().atMost(20, TimeUnit.SECONDS).until(() -> !failures.isEmpty() || total.get() >= start + 200);
        assertTrue(failures.isEmpty(), () -> "calls failed: " + failures);
    }
}
