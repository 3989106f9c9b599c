package org.rouse.benchmarks.scenario;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What the user asked for on the command line that scenarios may care about.
 *
 * @param quick run briefly (a few seconds per scenario): for tests and trying things out, not for reported figures
 * @param outputDirectory where the reports go
 */
public record Options(boolean quick, Path outputDirectory) {

    public Options {
        Objects.requireNonNull(outputDirectory, "outputDirectory");
    }
}
