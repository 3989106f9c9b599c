package org.rouse.benchmarks.selector;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The p99 baseline: a blocking server with one thread per connection ({@code rouse-bench-blocking-N}, started by
 * {@code rouse-bench-blocking-accept}). Each call wakes exactly the thread that owns the connection, straight from
 * the kernel: no selector, no hand-off.
 */
final class BlockingEchoServer implements EchoServer {

    private final ServerSocket server;
    private final Thread acceptor;
    /** Connections and their threads; guarded by {@code this}, added by the acceptor, drained by close(). */
    private final List<Socket> connections = new ArrayList<>();

    private final List<Thread> threads = new ArrayList<>();

    /** Connections whose thread still serves them; the acceptor increments, each thread decrements as it ends. */
    private final AtomicInteger connectionsOpen = new AtomicInteger();

    BlockingEchoServer() throws IOException {
        server = new ServerSocket();
        try {
            server.bind(EchoServer.anyLoopbackPort(), BACKLOG);
        } catch (IOException e) {
            server.close();
            throw e;
        }
        acceptor = new Thread(this::acceptAll, "rouse-bench-blocking-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptAll() {
        try {
            for (int n = 0; ; n++) {
                Socket connection = server.accept();
                connection.setTcpNoDelay(true);
                Thread thread = new Thread(() -> serve(connection), "rouse-bench-blocking-" + n);
                thread.setDaemon(true);
                synchronized (this) {
                    connections.add(connection);
                    threads.add(thread);
                }
                connectionsOpen.incrementAndGet();
                thread.start();
            }
        } catch (IOException e) {
            // the server socket was closed: stop accepting
        }
    }

    private void serve(Socket connection) {
        byte[] message = new byte[MESSAGE_BYTES];
        try (connection) {
            DataInputStream in = new DataInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            while (true) {
                in.readFully(message);
                out.write(message);
            }
        } catch (EOFException e) {
            // the client hung up
        } catch (IOException e) {
            // closed by close() or reset by the client
        } finally {
            connectionsOpen.decrementAndGet();
        }
    }

    @Override
    public int openConnections() {
        return connectionsOpen.get();
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        server.close();
        acceptor.join(TimeUnit.SECONDS.toMillis(30));
        List<Thread> toJoin;
        synchronized (this) {
            for (Socket connection : connections) {
                connection.close();
            }
            toJoin = List.copyOf(threads);
        }
        for (Thread thread : toJoin) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
