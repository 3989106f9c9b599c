package org.rouse.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The harness command line: {@code <scenario...>|--list [--quick] [--out DIR]}.
 *
 * @param scenarios scenario names, in the order given
 * @param list print the scenarios and exit
 * @param quick run briefly
 * @param outputDirectory where reports go
 */
record HarnessArguments(List<String> scenarios, boolean list, boolean quick, Path outputDirectory) {

    /** Where reports go unless {@code --out} says otherwise (relative to the project root). */
    static final Path DEFAULT_OUTPUT = Path.of("benchmarks", "results");

    static final String COMMAND = "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness";

    static final String USAGE = "usage: " + COMMAND + " <scenario...>|--list [--quick] [--out DIR]\n"
            + "  --list     print the scenarios and exit\n"
            + "  --quick    a few seconds per scenario (smoke test; do not publish these figures)\n"
            + "  --out DIR  where <scenario>.md/.csv/.png go (default " + DEFAULT_OUTPUT + ")";

    HarnessArguments {
        scenarios = List.copyOf(scenarios);
    }

    /**
     * Parses the arguments.
     *
     * @throws IllegalArgumentException with a message naming the problem when they make no sense
     */
    static HarnessArguments parse(List<String> args) {
        List<String> scenarios = new ArrayList<>();
        boolean list = false;
        boolean quick = false;
        Path out = DEFAULT_OUTPUT;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--list" -> list = true;
                case "--quick" -> quick = true;
                case "--out" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("--out needs a directory");
                    }
                    out = Path.of(args.get(++i));
                }
                default -> {
                    if (arg.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + arg);
                    }
                    scenarios.add(arg);
                }
            }
        }
        if (!list && scenarios.isEmpty()) {
            throw new IllegalArgumentException("name at least one scenario, or --list");
        }
        return new HarnessArguments(scenarios, list, quick, out);
    }

    /** The command line that reproduces one scenario's report with these options. */
    String reproduce(String scenario) {
        StringBuilder command = new StringBuilder(COMMAND).append(' ').append(scenario);
        if (quick) {
            command.append(" --quick");
        }
        if (!outputDirectory.equals(DEFAULT_OUTPUT)) {
            command.append(" --out ").append(outputDirectory);
        }
        return command.toString();
    }
}
