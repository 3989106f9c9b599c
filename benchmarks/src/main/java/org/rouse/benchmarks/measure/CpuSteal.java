package org.rouse.benchmarks.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The share of the machine's CPU time the hypervisor gave to other guests (Linux's "steal" time) over an interval: on
 * a virtual machine a burst of steal stalls every thread for milliseconds, whatever the code does, so a report states
 * how much there was while it ran.
 *
 * <pre>{@code
 * CpuSteal.Sample before = CpuSteal.sample();
 * runTheScenario();
 * double percent = CpuSteal.percentSince(before);   // e.g. 2.6, or NaN without /proc/stat
 * }</pre>
 */
public final class CpuSteal {

    private static final Path PROC_STAT = Path.of("/proc/stat");

    private CpuSteal() {}

    /** The machine's CPU time counters at one moment, in clock ticks; {@code total} is -1 where unreadable. */
    public record Sample(long steal, long total) {}

    /** The counters now; {@code total} is -1 where {@code /proc/stat} cannot be read. */
    public static Sample sample() {
        try {
            List<String> lines = Files.readAllLines(PROC_STAT);
            return parse(lines.isEmpty() ? "" : lines.get(0));
        } catch (IOException | RuntimeException e) {
            return new Sample(0, -1);
        }
    }

    /**
     * Parses the aggregate line of {@code /proc/stat}: "cpu user nice system idle iowait irq softirq steal guest
     * guest_nice" (guest time is already counted in user time, so it is left out of the total).
     */
    static Sample parse(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (fields.length < 9 || !fields[0].equals("cpu")) {
            return new Sample(0, -1);
        }
        long total = 0;
        for (int i = 1; i <= 8; i++) {
            total += Long.parseLong(fields[i]);
        }
        return new Sample(Long.parseLong(fields[8]), total);
    }

    /** Steal as a percentage of all CPU time since {@code before}, or NaN if unknown or no time passed. */
    public static double percentSince(Sample before) {
        return percentBetween(before, sample());
    }

    static double percentBetween(Sample before, Sample after) {
        long total = after.total() - before.total();
        if (before.total() < 0 || after.total() < 0 || total <= 0) {
            return Double.NaN;
        }
        return 100.0 * (after.steal() - before.steal()) / total;
    }
}
