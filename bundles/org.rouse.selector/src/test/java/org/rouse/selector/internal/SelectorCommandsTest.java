package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.api.internal.selector.SelectorCommands;

/** The engine's counters and the {@code rouse:selector} command over a real engine. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SelectorCommandsTest {

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @Test
    void countersFollowUpcallsRebuildsAndPoolThreads() throws Exception {
        // no core threads and a 1 s idle timeout: the pool creates a worker for the call and retires it after; no
        // loop hand-over, so that the calls are pool upcalls
        NioSelectorEngine engine = rig.engine(
                EngineSettings.DEFAULTS.withPool(0, 4, 1).withQueueCapacity(100).withLoopHandover(false));
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view("com.example.server", 100);
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
        SocketChannel client = rig.connect(server);
        assertEquals(7, Rig.call(client, 7));
        engine.forceRebuild();
        await().until(() -> engine.rebuilds() == 1);
        assertEquals(8, Rig.call(client, 8));

        Map<String, Long> counters = engine.counters();
        assertEquals(2L, counters.get("channels"));
        assertEquals(1L, counters.get("rebuilds"));
        assertTrue(counters.get("pool.threads.created") >= 1);
        assertTrue(counters.get("wakeups.written") <= counters.get("select.cycles") + 1);
        // each pool upcall's re-arm is timed (the second one may still be re-arming when its reply arrives)
        await().until(() -> engine.counters().get("rearm.count") >= 2);
        long rearmMax = engine.counters().get("rearm.max.ns");
        assertTrue(rearmMax > 0 && rearmMax < 30_000_000_000L, "re-arm latency " + rearmMax);
        await().until(() -> engine.counters()
                .get("pool.threads.retired")
                .equals(engine.counters().get("pool.threads.created")));
        assertEquals(0L, engine.counters().get("pool.threads"), "idle workers above the core size retire");

        String report = new SelectorCommands(rig.core, () -> List.of(view)).report();
        assertTrue(report.startsWith("engine " + engine.name() + "\n"), report);
        assertTrue(report.contains("rebuilds 1"), report);
        assertTrue(report.contains("view com.example.server: 2 registrations"), report);
    }

    @Test
    void connectionsAreCountedPerBundleAndListedForOneAndAResetZeroesTheUpcalls() throws Exception {
        NioSelectorEngine engine = rig.engine(EngineSettings.DEFAULTS);
        rig.core.swapTo(engine);
        BundleSelectorView view = rig.view("com.example.server", 100);
        BundleSelectorView idle = rig.view("com.example.idle", 100);
        ServerSocketChannel server = rig.server();
        view.accept(server, SelectionKey.OP_READ, connection -> new Rig.Echo());
        SocketChannel first = rig.connect(server);
        SocketChannel second = rig.connect(server);
        assertEquals(1, Rig.call(first, 1));
        assertEquals(2, Rig.call(second, 2));
        SelectorCommands commands = new SelectorCommands(rig.core, () -> List.of(view, idle));

        String[] perBundle = commands.connectionsReport().split("\\R");
        assertEquals(3, perBundle.length, String.join("\n", perBundle));
        assertTrue(perBundle[1].matches("com\\.example\\.idle\\s+0\\s+0\\s+0"), perBundle[1]);
        assertTrue(perBundle[2].matches("com\\.example\\.server\\s+2\\s+1\\s+0"), perBundle[2]);

        String listed = commands.connectionsReport("com.example.server");
        assertTrue(listed.contains(first.getLocalAddress().toString()), listed); // the client's end is the remote
        assertTrue(listed.contains(second.getLocalAddress().toString()), listed);
        assertTrue(listed.contains("listening"), listed);
        IllegalArgumentException unknown = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> commands.connectionsReport("com.example.nobody"));
        assertTrue(unknown.getMessage().contains("'com.example.nobody'"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("com.example.server"), unknown.getMessage());

        await().until(() -> view.statistics().upcalls() >= 2);
        commands.selector("reset");
        assertEquals(0, view.statistics().upcalls());
        assertEquals(3, view.statistics().registrations(), "a reset keeps the registrations");
        assertEquals(3, Rig.call(first, 3));
        await().until(() -> view.statistics().upcalls() >= 1);
    }

    @Test
    void withoutAnEngineTheCommandSaysSo() {
        String report = new SelectorCommands(rig.core, List::of).report();
        assertTrue(report.startsWith("engine none"), report);
    }
}
