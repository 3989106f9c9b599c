package org.rouse.benchmarks.selector;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One blocking client connection making request/reply calls, each carrying a sequence number that the reply must
 * echo. Used by one thread.
 */
final class EchoClient implements AutoCloseable {

    private final SocketChannel channel;
    private final ByteBuffer request = ByteBuffer.allocateDirect(EchoServer.MESSAGE_BYTES);
    private final ByteBuffer reply = ByteBuffer.allocateDirect(EchoServer.MESSAGE_BYTES);
    private long sequence;

    EchoClient(InetSocketAddress server) throws IOException {
        channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(server);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    /** Sends one request and waits for its reply. */
    void call() throws IOException {
        long expected = ++sequence;
        request.clear();
        request.putLong(0, expected);
        while (request.hasRemaining()) {
            channel.write(request);
        }
        reply.clear();
        while (reply.hasRemaining()) {
            if (channel.read(reply) < 0) {
                throw new EOFException("the server closed " + channel + " during call " + expected);
            }
        }
        if (reply.getLong(0) != expected) {
            throw new IOException("call " + expected + " on " + channel + " got the reply to " + reply.getLong(0));
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
