package org.rouse.benchmarks.selector;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The non-blocking echo of one connection, shared by the NIO servers: collects a whole request (it may arrive in
 * pieces) and writes it back. Used by one thread at a time (the selector front hands a connection's upcalls over
 * with a happens-before edge).
 */
final class MessageEcho {

    private final ByteBuffer message = ByteBuffer.allocateDirect(EchoServer.MESSAGE_BYTES);

    /**
     * Reads what is there and answers a complete request.
     *
     * @return {@code false} when the client closed the connection
     */
    boolean readAndEcho(SocketChannel channel) throws IOException {
        if (channel.read(message) < 0) {
            return false;
        }
        if (!message.hasRemaining()) {
            message.flip();
            // a closed-loop client has one 32-byte reply outstanding: the socket buffer always takes it at once
            while (message.hasRemaining()) {
                channel.write(message);
            }
            message.clear();
        }
        return true;
    }
}
