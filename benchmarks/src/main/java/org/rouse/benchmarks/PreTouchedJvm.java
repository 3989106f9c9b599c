package org.rouse.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the harness in a child JVM whose heap is fixed and touched before the first round, so that no round pays for
 * the kernel mapping fresh heap pages while the heap grows.
 *
 * <pre>{@code
 * int status = PreTouchedJvm.run(List.of("lock-contention"));   // java -Xms2g -Xmx2g -XX:+AlwaysPreTouch ... Harness
 * }</pre>
 *
 * <p>Why: with the JVM's default heap (an initial size of 1/64 of memory, growing on demand) every page of a newly
 * grown heap region faults on its first touch. On the 2-core hosts these figures come from, a paravirtualized VM
 * where a page fault costs microseconds, the rounds that ran while the heap grew did a fifth of the work of the others
 * (`lock-contention-64`: 4 M acquisitions a second in the first rounds, 25 M after), and which variant's rounds fell in
 * that phase decided a side-by-side ratio. With the heap fixed and touched at start every round runs at the later
 * rate (docs/performance.md, "The harness on a pre-touched heap").
 */
final class PreTouchedJvm {

    /** The child's heap, initial and maximum: every scenario fits in it with room to spare. */
    static final String HEAP = "2g";

    /** Set in the child, so that it runs the scenarios itself instead of forking again. */
    static final String CHILD_PROPERTY = "rouse.harness.child";

    private PreTouchedJvm() {}

    /** Whether this JVM is already such a child, or was started with a pre-touched heap by hand. */
    static boolean isCurrent() {
        return Boolean.getBoolean(CHILD_PROPERTY)
                || ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+AlwaysPreTouch");
    }

    /**
     * Runs {@code Harness args} in a child JVM with this JVM's options, then a fixed pre-touched heap, sharing this
     * process's standard streams, and waits for it.
     *
     * @return the child's exit status
     */
    static int run(List<String> args) throws IOException, InterruptedException {
        Process child = new ProcessBuilder(command(args)).inheritIO().start();
        Thread killChild = new Thread(child::destroy, "rouse-harness-child-killer");
        Runtime.getRuntime().addShutdownHook(killChild);
        try {
            return child.waitFor();
        } finally {
            if (!child.isAlive()) {
                Runtime.getRuntime().removeShutdownHook(killChild);
            }
        }
    }

    /** The child's command line; this JVM's own options come after the heap flags, so an explicit -Xmx wins. */
    static List<String> command(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + HEAP);
        command.add("-Xmx" + HEAP);
        command.add("-XX:+AlwaysPreTouch");
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-D" + CHILD_PROPERTY + "=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Harness.class.getName());
        command.addAll(args);
        return command;
    }
}
