package org.rouse.benchmarks.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The machine a report was measured on, stated in its header so figures are never read without their context.
 *
 * <pre>{@code
 * MachineInfo machine = MachineInfo.current();   // "2 cores (AMD EPYC), Linux 6.1 amd64, load average 0.42"
 * }</pre>
 *
 * @param cores processors available to the JVM
 * @param cpu CPU model name, or {@code unknown}
 * @param os operating system name, version and architecture
 * @param jdk JVM name and runtime version, and its heap (e.g. "heap 2048 MiB, pre-touched")
 * @param date when the measurement ran (UTC, whole seconds)
 * @param loadAverage the system load average over the last minute when the run started ({@code NaN} if unknown): on a
 *     shared machine it says how much of the noise came from elsewhere
 */
public record MachineInfo(int cores, String cpu, String os, String jdk, Instant date, double loadAverage) {

    public MachineInfo {
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(os, "os");
        Objects.requireNonNull(jdk, "jdk");
        Objects.requireNonNull(date, "date");
    }

    /** This machine, now. */
    public static MachineInfo current() {
        return new MachineInfo(
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", " + heap(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                currentLoadAverage());
    }

    /** The same machine and moment with another JVM's description (the JVM that measured, when this one did not). */
    public MachineInfo withJdk(String otherJdk) {
        return new MachineInfo(cores, cpu, os, otherJdk, date, loadAverage);
    }

    /** E.g. "2 cores (AMD EPYC), Linux 6.1.0 amd64, load average 1.52". */
    public String describeHardware() {
        String load = Double.isNaN(loadAverage)
                ? "load average unknown"
                : String.format(Locale.ROOT, "load average %.2f", loadAverage);
        return cores + " cores (" + cpu + "), " + os + ", " + load;
    }

    /** E.g. "heap 2048 MiB, pre-touched" or "heap 384-6144 MiB, grown on demand". */
    private static String heap() {
        long mib = 1024 * 1024;
        long initial = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getInit() / mib;
        long max = Runtime.getRuntime().maxMemory() / mib;
        boolean preTouched =
                ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+AlwaysPreTouch");
        String size = initial >= max ? "heap " + max + " MiB" : "heap " + initial + "-" + max + " MiB";
        return size + (preTouched ? ", pre-touched" : ", grown on demand");
    }

    private static double currentLoadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? Double.NaN : load;
    }

    private static String cpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(cpuinfo)) {
            return "unknown";
        }
        try (Stream<String> lines = Files.lines(cpuinfo)) {
            return lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
