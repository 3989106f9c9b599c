package org.rouse.benchmarks.measure;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Linux task behind a Java thread, seen through {@code /proc}: lets a driver check that a target thread is really
 * blocked in the kernel (in {@code epoll_wait}, a futex) before it measures how long waking it takes.
 *
 * <p>Obtain it on the target thread itself ({@link #current()}), then query it from anywhere. Where {@code /proc} is
 * missing the handle is "unknown" and {@link #isBlocked()} always answers {@code true}, so callers fall back to their
 * pause alone.
 *
 * <pre>{@code
 * // on the worker:            kernelThread = KernelThread.current();
 * // on the driver, later:     if (kernelThread.isBlocked()) selector.wakeup();
 * }</pre>
 */
public final class KernelThread {

    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    /** {@code /proc/<pid>/task/<tid>/stat}, or null when unknown. */
    private final Path stat;

    private KernelThread(Path stat) {
        this.stat = stat;
    }

    /** The calling thread's task. */
    public static KernelThread current() {
        try {
            // the link reads "<pid>/task/<tid>" relative to /proc
            Path task = Path.of("/proc").resolve(Files.readSymbolicLink(THREAD_SELF));
            return new KernelThread(task.resolve("stat"));
        } catch (IOException | UnsupportedOperationException e) {
            return new KernelThread(null);
        }
    }

    /**
     * Whether the task is blocked in the kernel right now (state {@code S} or {@code D} in its {@code stat} file).
     * Always {@code true} when the task is unknown.
     */
    public boolean isBlocked() {
        if (stat == null) {
            return true;
        }
        ByteBuffer buffer = ByteBuffer.allocate(1024);
        try (FileChannel file = FileChannel.open(stat)) {
            file.read(buffer);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + stat + " (has the thread ended?)", e);
        }
        // "<tid> (<comm>) <state> ...": comm may hold spaces and parentheses, so look after the last ')'
        byte[] text = buffer.array();
        for (int i = buffer.position() - 1; i >= 0; i--) {
            if (text[i] == ')') {
                byte state = i + 2 < buffer.position() ? text[i + 2] : 0;
                return state == 'S' || state == 'D';
            }
        }
        throw new IllegalStateException("unexpected format of " + stat);
    }

    @Override
    public String toString() {
        return stat == null ? "KernelThread[unknown]" : "KernelThread[" + stat.getParent() + "]";
    }
}
