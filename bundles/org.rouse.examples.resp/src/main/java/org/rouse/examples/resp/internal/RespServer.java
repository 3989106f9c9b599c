package org.rouse.examples.resp.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
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
 * arm the idle timer and close it at shutdown. Connections run with the configured dispatch: {@link Dispatch#INLINE}
 * by default, because no command blocks (each is a map operation under one key-space stripe), so the loop thread that
 * saw a request ready answers it, as Redis's event loop does, without a hand-off to a worker and a wake-up back.
 * {@link #connections} is a concurrent set: the acceptor adds, {@link Connection#onClosed} removes, {@link #close()}
 * empties it.
 *
 * <p>Accepting at line rate: the socket is bound with {@code listen.backlog} (1024 by default; the JDK's default of
 * 50 overflows under a reconnect storm, and each client whose SYN is dropped waits 1 s for its retransmission), each
 * readiness accepts until nothing is pending, and accept errors back off (see {@link #acceptAll}), as Tomcat's
 * acceptor does (50 ms doubling to 1.6 s) and Netty's (auto-read off for 1 s).
 */
final class RespServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RespServer.class);

    private final SelectorService selector;
    private final Commands commands;
    private final IdleTimers timers;
    private final Settings settings;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    /** Reply batches written; incremented by connections' upcalls, read by tests. */
    private final LongAdder replyBatches = new LongAdder();

    private final ServerSocketChannel server;
    private final ChannelRegistration acceptor;

    /** A validated configuration. */
    record Settings(
            InetSocketAddress address,
            RespParser.Limits limits,
            Duration idleTimeout,
            int maxConnections,
            int backlog,
            Dispatch dispatch) {}

    /** Delay after the first failed accept of a burst; doubles per failure up to {@link #MAX_ACCEPT_DELAY_MS}. */
    static final long FIRST_ACCEPT_DELAY_MS = 10;

    static final long MAX_ACCEPT_DELAY_MS = 1000;

    /** Where connections come from: the server socket, or a test's wrapper of it. */
    interface AcceptSource {
        SocketChannel accept() throws IOException;
    }

    /** Acceptor-confined (its upcalls never overlap): failed accepts in the current burst, 0 when none. */
    private int acceptFailures;
    /** Acceptor-confined: the delay the next failed accept pauses for. */
    private int acceptDelayMs = (int) FIRST_ACCEPT_DELAY_MS;
    /** Bursts of failed accepts, each logged once; incremented by the acceptor, read by tests. */
    private final AtomicLong acceptFailureBursts = new AtomicLong();

    /** Written by the constructor and by tests before they connect; read by the acceptor. */
    private volatile AcceptSource acceptSource;

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
            server.bind(settings.address(), settings.backlog());
            server.configureBlocking(false);
            acceptSource = server::accept;
            acceptor = selector.register(server, SelectionKey.OP_ACCEPT, (reg, ops) -> acceptAll(reg), Dispatch.INLINE);
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

    /**
     * Accepts every pending connection. An accept error (out of descriptors: EMFILE, ENFILE) is logged once per
     * burst, and the acceptor is suspended for a delay that doubles per failure (10 ms to 1 s) and resumed by the
     * timer service: never a busy loop on a socket that stays ready, never a dead acceptor.
     */
    private void acceptAll(ChannelRegistration reg) throws IOException {
        while (true) {
            SocketChannel channel;
            try {
                channel = acceptSource.accept();
            } catch (IOException e) {
                backOff(reg, e);
                return;
            }
            if (acceptFailures != 0) {
                LOG.debug("Accepting on {} again after {} failed accepts", server, acceptFailures);
                acceptFailures = 0;
                acceptDelayMs = (int) FIRST_ACCEPT_DELAY_MS;
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
                ChannelRegistration registration =
                        selector.register(channel, SelectionKey.OP_READ, connection, settings.dispatch());
                connection.registered(registration, timers);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Closing {}: cannot register it ({})", channel, e.toString());
                connections.remove(connection);
                connection.close();
                channel.close();
            }
        }
    }

    private void backOff(ChannelRegistration reg, IOException e) {
        int delay = acceptDelayMs;
        if (acceptFailures++ == 0) {
            acceptFailureBursts.incrementAndGet();
            LOG.warn(
                    "Cannot accept on {}: {}; pausing accepts for {} ms, then retrying with a doubling delay up to {}"
                            + " ms (failures are not logged again until a connection is accepted)",
                    server,
                    e.toString(),
                    delay,
                    MAX_ACCEPT_DELAY_MS);
        }
        acceptDelayMs = (int) Math.min(MAX_ACCEPT_DELAY_MS, delay * 2L);
        reg.suspend();
        try {
            timers.after(Duration.ofMillis(delay), () -> {
                if (reg.isValid()) {
                    reg.resume();
                }
            });
        } catch (RuntimeException timerGone) {
            reg.resume(); // no timer service (shutting down): keep accepting rather than stop for good
        }
    }

    /** Wraps where accepted connections come from (tests inject accept errors or a busy acceptor). */
    void wrapAcceptSource(UnaryOperator<AcceptSource> wrapper) {
        acceptSource = wrapper.apply(acceptSource);
    }

    long acceptFailureBursts() {
        return acceptFailureBursts.get();
    }

    /** Counts one write of a batch of replies (a pipeline of parsed commands is answered with one write). */
    void replyBatchWritten() {
        replyBatches.increment();
    }

    /** Batches of replies written, over all connections. */
    long replyBatches() {
        return replyBatches.sum();
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
