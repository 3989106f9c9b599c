package org.rouse.benchmarks.measure;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's context switch counters from {@code /proc/thread-self/status} (Linux): voluntary (the thread
 * blocked: park, sleep, I/O wait) and involuntary (the scheduler preempted it).
 *
 * <p>A thread can only read its own counters this way, so every worker of a benchmark reads them at its start and end
 * and the deltas are summed. Where {@code /proc} is missing, {@link #supported()} is false and every reading is zero.
 *
 * <pre>{@code
 * ContextSwitches before = ContextSwitches.ofCurrentThread();
 * LockSupport.parkNanos(1_000_000);
 * long switches = ContextSwitches.ofCurrentThread().minus(before).total(); // usually 1
 * }</pre>
 *
 * @param voluntary switches because the thread blocked
 * @param involuntary switches because the thread was preempted
 */
public record ContextSwitches(long voluntary, long involuntary) {

    /** No switches. */
    public static final ContextSwitches ZERO = new ContextSwitches(0, 0);

    private static final Path STATUS = Path.of("/proc/thread-self/status");
    private static final boolean SUPPORTED = Files.isReadable(STATUS);
    private static final byte[] VOLUNTARY = "\nvoluntary_ctxt_switches:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INVOLUNTARY = "\nnonvoluntary_ctxt_switches:".getBytes(StandardCharsets.US_ASCII);

    /** One read buffer per thread: the status file is ~1.5 KiB and read often, so do not allocate per read. */
    private static final ThreadLocal<ByteBuffer> BUFFERS = ThreadLocal.withInitial(() -> ByteBuffer.allocate(8192));

    /** Whether the counters can be read on this system. */
    public static boolean supported() {
        return SUPPORTED;
    }

    /** The calling thread's counters since it started ({@link #ZERO} when unsupported). */
    public static ContextSwitches ofCurrentThread() {
        if (!SUPPORTED) {
            return ZERO;
        }
        ByteBuffer buffer = BUFFERS.get();
        buffer.clear();
        try (FileChannel status = FileChannel.open(STATUS)) {
            while (buffer.hasRemaining() && status.read(buffer) > 0) {
                // /proc files may come in several reads
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + STATUS, e);
        }
        return parse(buffer.array(), buffer.position(), STATUS);
    }

    /** The counters in the first {@code length} bytes of {@code text}, a thread's status file read from {@code source}. */
    static ContextSwitches parse(byte[] text, int length, Path source) {
        return new ContextSwitches(
                counter(text, length, VOLUNTARY, source), counter(text, length, INVOLUNTARY, source));
    }

    /** This reading minus an earlier one. */
    public ContextSwitches minus(ContextSwitches earlier) {
        return new ContextSwitches(voluntary - earlier.voluntary, involuntary - earlier.involuntary);
    }

    /** The sum of two deltas. */
    public ContextSwitches plus(ContextSwitches other) {
        return new ContextSwitches(voluntary + other.voluntary, involuntary + other.involuntary);
    }

    /** Voluntary plus involuntary. */
    public long total() {
        return voluntary + involuntary;
    }

    private static long counter(byte[] text, int length, byte[] label, Path source) {
        int at = indexOf(text, length, label);
        if (at < 0) {
            throw new IllegalStateException(
                    "no " + new String(label, StandardCharsets.US_ASCII).trim() + " in " + source);
        }
        int i = at + label.length;
        while (i < length && (text[i] == ' ' || text[i] == '\t')) {
            i++;
        }
        long value = 0;
        while (i < length && text[i] >= '0' && text[i] <= '9') {
            value = value * 10 + (text[i++] - '0');
        }
        return value;
    }

    private static int indexOf(byte[] text, int length, byte[] label) {
        outer:
        for (int i = 0; i + label.length <= length; i++) {
            for (int j = 0; j < label.length; j++) {
                if (text[i + j] != label[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
