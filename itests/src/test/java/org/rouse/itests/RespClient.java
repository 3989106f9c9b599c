package org.rouse.itests;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 client over a real socket, written from the protocol description (Jedis needs SLF4J 1.x
 * inside OSGi, the runtime has SLF4J 2). Replies: simple and bulk strings as {@link String} ({@code null} for the
 * null bulk), integers as {@link Long}, arrays as {@link List}, errors as {@link Error}.
 */
final class RespClient implements AutoCloseable {

    /** An error reply. */
    record Error(String message) {}

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RespClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream());
        out = new BufferedOutputStream(socket.getOutputStream());
    }

    /** Sends one command as a multi-bulk array and returns its reply. */
    Object call(String... arguments) throws IOException {
        send(arguments);
        return reply();
    }

    void send(String... arguments) throws IOException {
        out.write(("*" + arguments.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String argument : arguments) {
            byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
            out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
        out.flush();
    }

    /** Sends bytes as they are, for malformed input. */
    void sendRaw(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    Object reply() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("server closed the connection");
        }
        String line = line();
        switch (type) {
            case '+':
                return line;
            case '-':
                return new Error(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length);
                if (bytes.length < length || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("truncated bulk");
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    items.add(reply());
                }
                return items;
            }
            default:
                throw new IOException("not a RESP reply type: " + (char) type);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("server closed the connection");
            }
            bytes.write(c);
        }
        if (in.read() != '\n') {
            throw new IOException("CR without LF");
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** Whether the server closed the connection (end of stream or reset) rather than sending anything. */
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
