package org.rouse.selector.internal;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.api.internal.selector.SelectorFrontCore;
import org.rouse.selector.ChannelHandler;
import org.rouse.selector.ChannelRegistration;

/** The real front core (dispatch + views) over real engines and loopback sockets, without OSGi. */
final class Rig implements AutoCloseable {

    final SelectorFrontCore core = new SelectorFrontCore();
    private final List<NioSelectorEngine> engines = new ArrayList<>();
    private final List<BundleSelectorView> views = new ArrayList<>();
    private final List<Closeable> closeables = new ArrayList<>();

    static EngineSettings settings(long selectTimeoutMs, boolean wakeupAfterUpcall) {
        return EngineSettings.DEFAULTS
                .withPool(2, 16, 60)
                .withSelect(selectTimeoutMs, wakeupAfterUpcall)
                .withWatchPeriodMicros(0); // the loop paths alone; WatchPeriodTest and the RESP tests cover the watch
    }

    /**
     * {@link #settings} with the loops' take-over off ({@code loop.takeover.after.micros=0}): every pool upcall goes
     * to a worker or, after a hand-over, to the loop's other thread, for tests of the pool's, the watch's and the
     * hand-over's paths.
     */
    static EngineSettings poolPathSettings(long selectTimeoutMs, boolean wakeupAfterUpcall) {
        return settings(selectTimeoutMs, wakeupAfterUpcall).withLoopTakeoverAfterMicros(0);
    }

    NioSelectorEngine engine(EngineSettings settings) {
        NioSelectorEngine engine = new NioSelectorEngine(settings);
        engines.add(engine);
        return engine;
    }

    /**
     * An engine with {@code settings} that the front uses, returned once its loop's second thread has started and
     * parked as the standby (the hand-over and take-over need it).
     */
    NioSelectorEngine activeEngineWithStandby(EngineSettings settings) {
        NioSelectorEngine engine = engine(settings);
        core.swapTo(engine);
        awaitStandbyParked(engine);
        return engine;
    }

    /** Waits up to 10 s until the engine's (one) loop has its standby parked. */
    static void awaitStandbyParked(NioSelectorEngine engine) {
        Awaitility.await("the loop's standby parked")
                .atMost(Duration.ofSeconds(10))
                .until(() -> engine.counters().get("loop.standby.parked") == 1L);
    }

    /** An engine that never needs its select timeout: any delay would show as a test timeout. */
    NioSelectorEngine activeEngine() {
        NioSelectorEngine engine = engine(settings(600_000, true));
        core.swapTo(engine);
        return engine;
    }

    BundleSelectorView view(String owner, int maxRegistrations) {
        BundleSelectorView view = new BundleSelectorView(core, owner, () -> maxRegistrations);
        views.add(view);
        return view;
    }

    BundleSelectorView view() {
        return view("test.bundle", 65_536);
    }

    ServerSocketChannel server() throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        closeables.add(server);
        server.bind(new InetSocketAddress("127.0.0.1", 0));
        server.configureBlocking(false);
        return server;
    }

    /** A blocking client connected to {@code server}. */
    SocketChannel connect(ServerSocketChannel server) throws IOException {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        closeables.add(client);
        return client;
    }

    /** A non-blocking, unconnected socket channel. */
    SocketChannel idleChannel() throws IOException {
        SocketChannel channel = SocketChannel.open();
        closeables.add(channel);
        channel.configureBlocking(false);
        return channel;
    }

    /** Sends {@code value} and returns the 8 bytes echoed back. */
    static long call(SocketChannel client, long value) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(8).putLong(value).flip();
        while (out.hasRemaining()) {
            client.write(out);
        }
        ByteBuffer in = ByteBuffer.allocate(8);
        while (in.hasRemaining()) {
            if (client.read(in) < 0) {
                throw new EOFException("server closed the connection");
            }
        }
        return in.flip().getLong();
    }

    /** Reads until the server closes; returns whether it did (rather than sending data). */
    static boolean closedByServer(SocketChannel client) throws IOException {
        try {
            return client.read(ByteBuffer.allocate(64)) < 0;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        for (BundleSelectorView view : views) {
            view.release();
        }
        core.swapTo(null);
        for (NioSelectorEngine engine : engines) {
            engine.shutdown();
        }
        for (Closeable c : closeables) {
            c.close();
        }
    }

    /**
     * Echoes what it reads; a request starting with {@code 'X'} makes it throw. Records how its registration
     * ended.
     */
    static class Echo implements ChannelHandler {

        private final ByteBuffer buffer = ByteBuffer.allocate(1024);
        volatile Throwable closeCause;
        volatile boolean closed;

        @Override
        public void onReady(ChannelRegistration registration, int readyOps) throws IOException {
            SocketChannel channel = (SocketChannel) registration.channel();
            buffer.clear();
            if (channel.read(buffer) < 0) {
                registration.close();
                return;
            }
            buffer.flip();
            if (buffer.hasRemaining() && buffer.get(0) == 'X') {
                throw new IllegalStateException("poisoned request");
            }
            while (buffer.hasRemaining()) {
                channel.write(buffer); // replies are a few bytes: they always fit the socket buffer
            }
        }

        @Override
        public void onClosed(ChannelRegistration registration, Throwable cause) {
            closeCause = cause;
            closed = true;
        }
    }

    /**
     * Opens {@code connections} connections to {@code server} and makes {@code calls} calls on each at once, one
     * client thread per connection; fails unless every reply is its own request's echo, within 60 s.
     */
    void callFromEach(ServerSocketChannel server, int connections, int calls) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(connections);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                SocketChannel client = connect(server);
                long base = c * 1_000_000L;
                done.add(clients.submit(() -> {
                    for (long i = 1; i <= calls; i++) {
                        long reply = call(client, base + i);
                        if (reply != base + i) {
                            throw new AssertionError("call " + (base + i) + " got the reply " + reply);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
    }
}
