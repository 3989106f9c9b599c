package org.rouse.examples.resp.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;
import org.rouse.selector.SelectorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RESP2 server on one listening socket, without OSGi: the component creates one per bind address and port.
 *
 * <p>Implementation notes. The listening socket is registered with {@link Dispatch#INLINE}: accepting never blocks
 * and costs less than a hand-off. Each accepted connection is registered by the acceptor itself (rather than through
 * {@link SelectorService#accept}) so that the server holds its {@link ChannelRegistration} from the start and can
 * arm the idle timer and close it at shutdown. Connections run with {@link Dispatch#POOL}. {@link #connections} is
 * a concurrent set: the acceptor adds, {@link Connection#onClosed} removes, {@link #close()} empties it.
 */
final class RespServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RespServer.class);

    private final SelectorService selector;
    private final Commands commands;
    private final IdleTimers timers;
    private final Settings settings;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final ServerSocketChannel server;
    private final ChannelRegistration acceptor;

    /** A validated configuration. */
    record Settings(InetSocketAddress address, RespParser.Limits limits, Duration idleTimeout, int maxConnections) {}

    /**
     * Binds and starts accepting.
     *
     * @throws IOException if the address cannot be bound or the selector refuses the channel
     */
    RespServer(SelectorService selector, KeySpace keys, IdleTimers timers, Settings settings) throws IOException {
        this.selector = selector;
        this.commands = new Commands(keys);
        this.timers = timers;
        this.settings = settings;
        this.server = ServerSocketChannel.open();
        try {
            server.bind(settings.address());
            server.configureBlocking(false);
            acceptor = selector.register(server, SelectionKey.OP_ACCEPT, (reg, ops) -> acceptAll(), Dispatch.INLINE);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Where the server listens (the actual port when 0 was configured). */
    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    int connections() {
        return connections.size();
    }

    private void acceptAll() throws IOException {
        while (true) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                LOG.warn("Cannot accept on {}: {}", server, e.toString()); // e.g. out of descriptors: keep listening
                return;
            }
            if (channel == null) {
                return;
            }
            if (connections.size() >= settings.maxConnections()) {
                LOG.warn("Refusing {}: {} connections open (max.connections)", channel, connections.size());
                channel.close();
                continue;
            }
            Connection connection = new Connection(this, commands, settings.limits(), settings.idleTimeout());
            try {
                channel.configureBlocking(false);
                connections.add(connection);
                ChannelRegistration registration = selector.register(channel, SelectionKey.OP_READ, connection);
                connection.registered(registration, timers);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Closing {}: cannot register it ({})", channel, e.toString());
                connections.remove(connection);
                connection.close();
                channel.close();
            }
        }
    }

    void closed(Connection connection) {
        connections.remove(connection);
    }

    /** Stops accepting and closes every connection. */
    @Override
    public void close() {
        acceptor.close();
        for (Connection connection : connections) {
            connection.close();
        }
        connections.clear();
    }
}
