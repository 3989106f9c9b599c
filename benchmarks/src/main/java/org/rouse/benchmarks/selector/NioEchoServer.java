package org.rouse.benchmarks.selector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The p50 baseline: a plain single-thread NIO server ({@code rouse-bench-nio-loop}) that accepts and echoes inline
 * on its select loop. No hand-off, no wakeup: the least work a selector server can do per call.
 */
final class NioEchoServer implements EchoServer {

    private final Selector selector;
    private final ServerSocketChannel server;
    private final Thread loop;
    /** Accepted connections not yet closed; the loop writes, openConnections() reads. */
    private final AtomicInteger connectionsOpen = new AtomicInteger();
    /** Set by close(), read by the loop after each select. */
    private volatile boolean closed;

    NioEchoServer() throws IOException {
        selector = Selector.open();
        server = ServerSocketChannel.open();
        try {
            server.bind(EchoServer.anyLoopbackPort(), BACKLOG);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            server.close();
            selector.close();
            throw e;
        }
        loop = new Thread(this::run, "rouse-bench-nio-loop");
        loop.setDaemon(true);
        loop.start();
    }

    private void run() {
        try {
            while (!closed) {
                selector.select();
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    handle(key);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the NIO echo loop failed", e);
        } catch (ClosedSelectorException e) {
            // closed under us: nothing left to serve
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key.channel());
            }
            closeQuietly(selector);
        }
    }

    private void handle(SelectionKey key) throws IOException {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            SocketChannel connection;
            while ((connection = server.accept()) != null) {
                connection.configureBlocking(false);
                connection.setOption(StandardSocketOptions.TCP_NODELAY, true);
                connection.register(selector, SelectionKey.OP_READ, new MessageEcho());
                connectionsOpen.incrementAndGet();
            }
            return;
        }
        SocketChannel connection = (SocketChannel) key.channel();
        boolean open;
        try {
            open = ((MessageEcho) key.attachment()).readAndEcho(connection);
        } catch (IOException e) {
            open = false; // a client reset: only that connection ends
        }
        if (!open) {
            key.cancel();
            connection.close();
            connectionsOpen.decrementAndGet();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing on the way out: nothing useful to do
        }
    }

    @Override
    public int openConnections() {
        return connectionsOpen.get();
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.socket().getLocalSocketAddress();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        selector.wakeup();
        loop.join(TimeUnit.SECONDS.toMillis(30));
    }
}
