package org.rouse.benchmarks.selector;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.api.internal.selector.SelectorFrontCore;
import org.rouse.selector.ChannelHandler;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;
import org.rouse.selector.internal.NioSelectorEngine;

/**
 * The echo server on the real Rouse selector front and NIO engine, outside OSGi: connections are accepted inline on
 * the loop and registered with the chosen {@link Dispatch}.
 */
final class RouseEchoServer implements EchoServer {

    private final NioSelectorEngine engine;
    private final SelectorFrontCore core = new SelectorFrontCore();
    private final BundleSelectorView view;
    private final ServerSocketChannel server;

    /**
     * @param mode where the echo handler runs
     * @param tuning the engine's settings (pool, loops, watch period, select timeout)
     */
    RouseEchoServer(Dispatch mode, BenchmarkEngines.Tuning tuning) throws IOException {
        engine = BenchmarkEngines.start(tuning);
        core.swapTo(engine);
        view = new BundleSelectorView(core, "org.rouse.benchmarks", () -> 65_536);
        server = ServerSocketChannel.open();
        try {
            server.bind(EchoServer.anyLoopbackPort(), BACKLOG);
            server.configureBlocking(false);
            view.register(server, SelectionKey.OP_ACCEPT, (registration, readyOps) -> acceptAll(mode), Dispatch.INLINE);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void acceptAll(Dispatch mode) throws IOException {
        SocketChannel connection;
        while ((connection = server.accept()) != null) {
            connection.configureBlocking(false);
            connection.setOption(StandardSocketOptions.TCP_NODELAY, true);
            view.register(connection, SelectionKey.OP_READ, new EchoHandler(), mode);
        }
    }

    /** Echoes one connection's requests. */
    private static final class EchoHandler implements ChannelHandler {
        private final MessageEcho echo = new MessageEcho();

        @Override
        public void onReady(ChannelRegistration registration, int readyOps) throws IOException {
            if (!echo.readAndEcho((SocketChannel) registration.channel())) {
                registration.close();
            }
        }
    }

    @Override
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the server channel is closed", e);
        }
    }

    @Override
    public int openConnections() {
        return (int) view.statistics().registrations() - 1; // all but the listening socket
    }

    @Override
    public Map<String, Long> engineCounters() {
        return engine.counters();
    }

    @Override
    public void close() throws IOException {
        view.release(); // closes the server channel and every connection
        core.swapTo(null);
        BenchmarkEngines.stop(engine);
        server.close();
    }
}
