package org.rouse.examples.resp.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits the bytes one connection received into RESP2 commands: multi-bulk arrays ({@code *2\r\n$3\r\nGET\r\n...})
 * as sent by every Redis client, and inline commands ({@code PING\r\n}) as typed into telnet.
 *
 * <p>Implementation notes. The parser owns one input buffer per connection and parses from the first byte not yet
 * consumed ({@link #start}), so a command split across reads is simply parsed again once more bytes arrived. A
 * parsed command only moves {@link #start}; the unparsed rest is moved to the front of the buffer when a read needs
 * the room, so a pipeline of n commands in one read costs O(n) copying, not O(n^2). To keep re-parsing linear for a
 * large bulk arriving in many pieces, a parse that stops inside a bulk records how many bytes the command needs at
 * least ({@link #needed}) and the next {@link #next()} returns at once until that many are buffered. Every length the peer
 * sends is bounded before anything is allocated: the inline line ({@code maxInlineLength}), the number of arguments
 * ({@code maxArguments}) and each bulk ({@code maxBulkLength}); so the buffer never holds more than one bounded
 * command plus one read. Not thread-safe: one connection's upcalls never overlap.
 */
final class RespParser {

    /** Thrown for input that is not RESP2 or exceeds a limit; the connection replies with it and closes. */
    static final class ProtocolException extends Exception {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message, null, false, false);
        }
    }

    private final Limits limits;
    private byte[] buffer = new byte[1024];
    /** Index in {@link #buffer} of the first byte not parsed yet. */
    private int start;
    /** End of the input in {@link #buffer}: bytes {@code [start, length)} are not parsed yet. */
    private int length;
    /** The command at {@link #start} is incomplete until at least this many bytes from there are buffered. */
    private int needed;

    RespParser(Limits limits) {
        this.limits = limits;
    }

    /** The bounds applied to what a peer may send. */
    record Limits(int maxInlineLength, int maxArguments, int maxBulkLength) {}

    /** Appends what was read (the buffer flipped for reading); consumes it entirely. */
    void append(ByteBuffer input) {
        int count = input.remaining();
        if (length + count > buffer.length && start > 0) {
            System.arraycopy(buffer, start, buffer, 0, length - start);
            length -= start;
            start = 0;
        }
        if (length + count > buffer.length) {
            int capacity = Math.max(buffer.length * 2, length + count);
            buffer = Arrays.copyOf(buffer, capacity);
        }
        input.get(buffer, length, count);
        length += count;
    }

    /** Bytes buffered and not parsed yet. */
    int buffered() {
        return length - start;
    }

    /**
     * Returns the next complete command, its arguments in order (the command name first), or {@code null} if more
     * input is needed. An inline line with nothing but spaces yields an empty list.
     *
     * @throws ProtocolException if the input is malformed or exceeds a limit
     */
    List<byte[]> next() throws ProtocolException {
        int buffered = length - start;
        if (buffered == 0 || buffered < needed) {
            return null;
        }
        Cursor cursor = new Cursor();
        cursor.position = start;
        List<byte[]> command = buffer[start] == '*' ? multiBulk(cursor) : inline(cursor);
        if (command == null) {
            return null;
        }
        start = cursor.position;
        needed = 0;
        if (start == length) {
            start = 0;
            length = 0;
        }
        if (buffer.length > 64 * 1024 && length - start < 1024) {
            byte[] smaller = new byte[1024]; // give back what one large command needed
            System.arraycopy(buffer, start, smaller, 0, length - start);
            buffer = smaller;
            length -= start;
            start = 0;
        }
        return command;
    }

    private static final class Cursor {
        int position;
    }

    private List<byte[]> inline(Cursor cursor) throws ProtocolException {
        int first = cursor.position;
        int end = lineEnd(first);
        if (end < 0) {
            if (length - first > limits.maxInlineLength()) {
                throw new ProtocolException("too big inline request");
            }
            return null;
        }
        if (end - first > limits.maxInlineLength()) {
            throw new ProtocolException("too big inline request");
        }
        int lineEnd = end > first && buffer[end - 1] == '\r' ? end - 1 : end;
        cursor.position = end + 1;
        List<byte[]> arguments = new ArrayList<>();
        int word = -1;
        for (int i = first; i <= lineEnd; i++) {
            boolean space = i == lineEnd || buffer[i] == ' ' || buffer[i] == '\t';
            if (space && word >= 0) {
                if (arguments.size() == limits.maxArguments()) {
                    throw new ProtocolException("too many arguments in inline request");
                }
                arguments.add(Arrays.copyOfRange(buffer, word, i));
                word = -1;
            } else if (!space && word < 0) {
                word = i;
            }
        }
        return arguments;
    }

    private List<byte[]> multiBulk(Cursor cursor) throws ProtocolException {
        Long count = number(cursor, "multibulk length", limits.maxArguments());
        if (count == null) {
            return null;
        }
        List<byte[]> arguments = new ArrayList<>((int) Math.min(count, 64));
        for (long i = 0; i < count; i++) {
            if (cursor.position == length) {
                return null;
            }
            if (buffer[cursor.position] != '$') {
                throw new ProtocolException("expected '$', got '" + printable(buffer[cursor.position]) + "'");
            }
            Long bulkLength = number(cursor, "bulk length", limits.maxBulkLength());
            if (bulkLength == null) {
                return null;
            }
            int end = cursor.position + bulkLength.intValue();
            if (end + 2 > length) {
                needed = end + 2 - start;
                return null;
            }
            if (buffer[end] != '\r' || buffer[end + 1] != '\n') {
                throw new ProtocolException("bulk not followed by CRLF");
            }
            arguments.add(Arrays.copyOfRange(buffer, cursor.position, end));
            cursor.position = end + 2;
        }
        return arguments;
    }

    /**
     * Reads {@code <prefix><digits>\r\n} at the cursor and moves past it; {@code null} if the line is incomplete.
     * The value must lie in {@code [0, max]} (a negative multi-bulk length is not accepted from a client).
     */
    private Long number(Cursor cursor, String what, long max) throws ProtocolException {
        int digits = cursor.position + 1;
        int end = lineEnd(digits);
        if (end < 0) {
            if (length - digits > 32) {
                throw new ProtocolException("invalid " + what);
            }
            return null;
        }
        if (end < digits + 2 || buffer[end - 1] != '\r') {
            throw new ProtocolException("invalid " + what);
        }
        long value = 0;
        for (int i = digits; i < end - 1; i++) {
            byte digit = buffer[i];
            if (digit < '0' || digit > '9' || value > max) {
                throw new ProtocolException("invalid " + what);
            }
            value = value * 10 + (digit - '0');
        }
        if (value > max) {
            throw new ProtocolException("invalid " + what);
        }
        cursor.position = end + 1;
        return value;
    }

    /** Index of the next {@code '\n'} at or after {@code from}, or -1. */
    private int lineEnd(int from) {
        for (int i = from; i < length; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static String printable(byte b) {
        return b >= 32 && b < 127
                ? new String(new byte[] {b}, StandardCharsets.US_ASCII)
                : String.format("\\x%02x", b & 0xff);
    }
}
