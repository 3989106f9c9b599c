package org.rouse.examples.resp.internal;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A blocking client that writes raw RESP text and reads reply lines: for input no Redis client would send. */
final class RawClient implements AutoCloseable {

    final Socket socket;
    private final InputStream in;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    }

    void send(String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Reads one reply line (without CRLF). */
    String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new EOFException("closed after: " + line);
            }
            line.append((char) c);
        }
        int end = line.length() > 0 && line.charAt(line.length() - 1) == '\r' ? line.length() - 1 : line.length();
        return line.substring(0, end);
    }

    /** Whether the server closed the connection (end of stream or reset) instead of sending more. */
    boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
