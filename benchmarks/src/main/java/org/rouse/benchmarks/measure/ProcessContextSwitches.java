package org.rouse.benchmarks.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The context switch counters of every live thread of this process, from {@code /proc/self/task/<tid>/status}
 * (Linux), for backends whose threads the benchmark does not own (a timer engine's workers): read at the start and the
 * end of a window, {@link #since} gives the switches made in it.
 *
 * <p>A thread that ended before the second reading is not counted, so measure over a window in which the threads of
 * interest live; a thread started inside the window counts from its start. Where {@code /proc} is missing, every
 * reading is empty.
 *
 * <pre>{@code
 * ProcessContextSwitches before = ProcessContextSwitches.read();
 * // ... the window
 * long voluntary = ProcessContextSwitches.read().since(before).voluntary();
 * }</pre>
 */
public final class ProcessContextSwitches {

    private static final Path TASKS = Path.of("/proc/self/task");

    private final Map<String, ContextSwitches> byThread;

    private ProcessContextSwitches(Map<String, ContextSwitches> byThread) {
        this.byThread = byThread;
    }

    /** The counters of every thread of this process now (none where {@code /proc} is missing). */
    public static ProcessContextSwitches read() {
        Map<String, ContextSwitches> byThread = new HashMap<>();
        if (!Files.isDirectory(TASKS)) {
            return new ProcessContextSwitches(byThread);
        }
        try (Stream<Path> tasks = Files.list(TASKS)) {
            tasks.forEach(task -> {
                Path status = task.resolve("status");
                try {
                    byte[] text = Files.readAllBytes(status);
                    byThread.put(task.getFileName().toString(), ContextSwitches.parse(text, text.length, status));
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read: it is not counted
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + TASKS, e);
        }
        return new ProcessContextSwitches(byThread);
    }

    /**
     * The switches made since {@code earlier}: for each thread live now, its counters less its counters then, or all
     * of them if it started since (a thread id the kernel re-used shows as counters that went down).
     */
    public ContextSwitches since(ProcessContextSwitches earlier) {
        ContextSwitches sum = ContextSwitches.ZERO;
        for (Map.Entry<String, ContextSwitches> thread : byThread.entrySet()) {
            ContextSwitches now = thread.getValue();
            ContextSwitches then = earlier.byThread.getOrDefault(thread.getKey(), ContextSwitches.ZERO);
            boolean sameThread = now.voluntary() >= then.voluntary() && now.involuntary() >= then.involuntary();
            sum = sum.plus(sameThread ? now.minus(then) : now);
        }
        return sum;
    }
}
