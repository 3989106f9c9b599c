package org.rouse.examples.resp.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * RESP2 replies waiting to be written to one connection, in order. Not thread-safe: used only by its connection's
 * upcalls, which never overlap.
 */
final class ReplyBuffer {

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] NULL_BULK = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);

    private byte[] bytes = new byte[256];
    /** Bytes [written, length) are still to be written. */
    private int written;

    private int length;

    void simple(String status) {
        put((byte) '+');
        put(status.getBytes(StandardCharsets.UTF_8));
        put(CRLF);
    }

    /** An error reply; {@code message} starts with its code, e.g. {@code "ERR unknown command"}. */
    void error(String message) {
        put((byte) '-');
        put(message.replace('\r', ' ').replace('\n', ' ').getBytes(StandardCharsets.UTF_8));
        put(CRLF);
    }

    void integer(long value) {
        put((byte) ':');
        put(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
        put(CRLF);
    }

    /** A bulk string, or the null bulk for {@code null}. */
    void bulk(byte[] value) {
        if (value == null) {
            put(NULL_BULK);
            return;
        }
        put((byte) '$');
        put(Integer.toString(value.length).getBytes(StandardCharsets.US_ASCII));
        put(CRLF);
        put(value);
        put(CRLF);
    }

    void arrayHeader(int count) {
        put((byte) '*');
        put(Integer.toString(count).getBytes(StandardCharsets.US_ASCII));
        put(CRLF);
    }

    /** Bytes not written yet. */
    int pending() {
        return length - written;
    }

    /** Writes as much as the channel takes now; returns whether everything was written. */
    boolean writeTo(WritableByteChannel channel) throws IOException {
        while (written < length) {
            int count = channel.write(ByteBuffer.wrap(bytes, written, length - written));
            if (count == 0) {
                return false;
            }
            written += count;
        }
        written = 0;
        length = 0;
        if (bytes.length > 64 * 1024) {
            bytes = new byte[256]; // give back what one large reply needed
        }
        return true;
    }

    private void put(byte b) {
        ensure(1);
        bytes[length++] = b;
    }

    private void put(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, length, b.length);
        length += b.length;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
