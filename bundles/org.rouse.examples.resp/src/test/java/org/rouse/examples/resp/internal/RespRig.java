package org.rouse.examples.resp.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.api.internal.selector.SelectorFrontCore;
import org.rouse.selector.Dispatch;
import org.rouse.selector.internal.NioSelectorEngine;

/**
 * A RESP server on the real selector front and NIO engine, the real lock front (its built-in primitive) and JDK
 * timers for idle timeouts, listening on a free loopback port. No OSGi.
 */
final class RespRig implements AutoCloseable {

    final SelectorFrontCore core = new SelectorFrontCore();
    final NioSelectorEngine engine = TestEngines.start();
    final BundleSelectorView view = new BundleSelectorView(core, "org.rouse.examples.resp", () -> 65_536);
    final KeySpace keys =
            new KeySpace(new LockFrontCore().newView("org.rouse.examples.resp").stripes("keyspace", 8));
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "resp-test-idle");
        thread.setDaemon(true);
        return thread;
    });
    private final List<RawClient> clients = new ArrayList<>();
    final RespServer server;

    RespRig() throws IOException {
        this(RespServerComponent.DEFAULTS.dispatch());
    }

    RespRig(Dispatch dispatch) throws IOException {
        this(RespServerComponent.DEFAULTS.limits(), Duration.ofSeconds(300), 10_000, dispatch);
    }

    RespRig(RespParser.Limits limits, Duration idleTimeout, int maxConnections, Dispatch dispatch) throws IOException {
        this(limits, idleTimeout, maxConnections, RespServerComponent.DEFAULTS.backlog(), dispatch);
    }

    RespRig(RespParser.Limits limits, Duration idleTimeout, int maxConnections, int backlog, Dispatch dispatch)
            throws IOException {
        core.swapTo(engine);
        IdleTimers timers = (delay, task) -> {
            ScheduledFuture<?> future = scheduler.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        };
        server = new RespServer(
                view,
                keys,
                timers,
                new RespServer.Settings(
                        new InetSocketAddress("127.0.0.1", 0), limits, idleTimeout, maxConnections, backlog, dispatch));
    }

    int port() throws IOException {
        return server.address().getPort();
    }

    /** A raw client, closed with the rig. */
    RawClient connect() throws IOException {
        RawClient client = new RawClient(port());
        clients.add(client);
        return client;
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (RawClient client : clients) {
            client.close();
        }
        view.release();
        core.swapTo(null);
        TestEngines.stop(engine);
        scheduler.shutdownNow();
    }
}
