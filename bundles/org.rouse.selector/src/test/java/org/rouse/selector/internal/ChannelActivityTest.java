package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;

/**
 * The engine's count of recently active channels ({@code channels.recently.active}, the pool's demand), kept on each
 * channel's attachment to the engine: a channel counts once per epoch however many calls it makes, whether they pass
 * the loop's hand-off or a watching worker; a channel moved to another engine by a swap counts there, once, and no
 * more in the engine it left; a cancelled channel stops counting once its epoch is over.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChannelActivityTest {

    private final Rig rig = new Rig();
    private final List<Registered> handlers = new CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    private NioSelectorEngine engine(long watchMicros, long idleSeconds) {
        return rig.engine(
                Rig.poolPathSettings(600_000, true).withPool(2, 16, idleSeconds).withWatchPeriodMicros(watchMicros));
    }

    private List<SocketChannel> connectAndCall(BundleSelectorView view, int connections) throws IOException {
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> {
            Registered echo = new Registered();
            handlers.add(echo);
            return echo;
        });
        List<SocketChannel> clients = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            SocketChannel client = rig.connect(server);
            assertEquals(-1L, Rig.call(client, -1L));
            clients.add(client);
        }
        return clients;
    }

    private static void calls(List<SocketChannel> clients, int each) throws IOException {
        for (long i = 0; i < each; i++) {
            for (SocketChannel client : clients) {
                assertEquals(i, Rig.call(client, i));
            }
        }
    }

    private static long recent(NioSelectorEngine engine) {
        return engine.counters().get("channels.recently.active");
    }

    @ParameterizedTest(name = "watch period {0} us")
    @ValueSource(longs = {0, 1_000, 200_000})
    void eachChannelCountsOnceHoweverManyCallsItMakes(long watchMicros) throws Exception {
        NioSelectorEngine engine = engine(watchMicros, 3_600);
        rig.core.swapTo(engine);
        List<SocketChannel> clients = connectAndCall(rig.view(), 3);

        calls(clients, 40); // round robin: every call but a watched chain's passes the loop's hand-off

        assertEquals(
                3L, recent(engine), "3 connections called (the inline acceptor never counts): " + engine.counters());
        if (watchMicros >= 200_000) {
            assertTrue(engine.counters().get("watch.hits") > 0, "some calls were found by a watch");
        }
    }

    @Test
    void aSwapCountsEachChannelOnceInTheNewEngineAndNoMoreInTheOldOne() throws Exception {
        NioSelectorEngine first = engine(1_000, 3_600);
        rig.core.swapTo(first);
        BundleSelectorView view = rig.view();
        List<SocketChannel> clients = connectAndCall(view, 3);
        calls(clients.subList(0, 2), 5);
        assertEquals(3L, recent(first));

        NioSelectorEngine second = engine(1_000, 3_600);
        rig.core.swapTo(second); // drains the first engine: its attachments end, new ones start in the second
        assertEquals(0L, recent(second), "no call yet in the new engine");
        calls(clients.subList(0, 2), 20);

        assertEquals(2L, recent(second), "the two connections that called since the swap: " + second.counters());
        assertEquals(3L, recent(first), "the old engine counts what it handed off before the swap, nothing after");

        calls(clients, 5);
        assertEquals(3L, recent(second));
    }

    @Test
    void aCancelledChannelStopsCountingOnceItsEpochsAreOver() throws Exception {
        NioSelectorEngine engine = engine(1_000, 1); // epochs of 1 s: the count forgets a channel after 1-2 s
        rig.core.swapTo(engine);
        List<SocketChannel> clients = connectAndCall(rig.view(), 3);
        calls(clients, 5);
        assertEquals(3L, recent(engine));
        ChannelRegistration cancelled = handlers.get(2).registration;

        cancelled.cancel(); // the channel stays open; its peer's next request is never handed to the pool
        SocketChannel gone = clients.get(2);
        gone.write(java.nio.ByteBuffer.allocate(8).putLong(7).flip());
        List<SocketChannel> staying = clients.subList(0, 2);

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            calls(staying, 1);
            return recent(engine) == 2;
        });
        calls(staying, 20);
        assertEquals(2L, recent(engine), "only the two live channels count: " + engine.counters());
    }

    /** Echoes and remembers its registration. */
    private static final class Registered extends Rig.Echo {
        volatile ChannelRegistration registration;

        @Override
        public void onReady(ChannelRegistration registration, int readyOps) throws IOException {
            this.registration = registration;
            super.onReady(registration, readyOps);
        }
    }
}
