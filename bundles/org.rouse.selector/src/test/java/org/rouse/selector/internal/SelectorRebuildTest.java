package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.ChannelRegistration;

/**
 * The epoll-spin rebuild, forced (the JDK bug cannot be provoked): every registration moves to the new selector with
 * its interest operations, wakeups reach the new selector, and nothing is closed. The engine's select timeout is 10
 * minutes, so a registration or wakeup lost in the move would show as a test timeout.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SelectorRebuildTest {

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @Test
    void aRebuiltSelectorKeepsEveryRegistrationAndWakeup() throws Exception {
        NioSelectorEngine engine = rig.activeEngine();
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        ChannelRegistration acceptor = view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
        SocketChannel[] clients = {rig.connect(server), rig.connect(server), rig.connect(server)};
        for (int c = 0; c < clients.length; c++) {
            assertEquals(c, Rig.call(clients[c], c));
        }
        await().until(() -> view.statistics().registrations() == 4);

        for (int rebuild = 1; rebuild <= 3; rebuild++) {
            engine.forceRebuild();
            int expected = rebuild;
            await().until(() -> engine.rebuilds() == expected);
            for (int c = 0; c < clients.length; c++) {
                long request = rebuild * 100L + c;
                assertEquals(request, Rig.call(clients[c], request), "pool upcall and re-arm after rebuild");
            }
        }

        SocketChannel late = rig.connect(server);
        assertEquals(42, Rig.call(late, 42), "the listener moved too");
        assertTrue(acceptor.isValid() && server.isOpen());
        assertEquals(5, view.statistics().registrations(), "nothing closed or lost");
    }
}
