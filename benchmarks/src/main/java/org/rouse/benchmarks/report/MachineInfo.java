package org.rouse.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The machine a report was measured on, stated in its header so figures are never read without their context.
 *
 * <pre>{@code
 * MachineInfo machine = MachineInfo.current();   // "2 cores (AMD EPYC), Linux 6.1 amd64"
 * }</pre>
 *
 * @param cores processors available to the JVM
 * @param cpu CPU model name, or {@code unknown}
 * @param os operating system name, version and architecture
 * @param jdk JVM name and runtime version
 * @param date when the measurement ran (UTC, whole seconds)
 */
public record MachineInfo(int cores, String cpu, String os, String jdk, Instant date) {

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
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                Instant.now().truncatedTo(ChronoUnit.SECONDS));
    }

    /** E.g. "2 cores (AMD EPYC), Linux 6.1.0 amd64". */
    public String describeHardware() {
        return cores + " cores (" + cpu + "), " + os;
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
