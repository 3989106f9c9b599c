package org.rouse.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The harness command line:
 * {@code <scenario...>|--list [--quick] [--out DIR] [--rounds N] [--forks N] [--variant NAME] [--in-process]}.
 *
 * @param scenarios scenario names, in the order given
 * @param list print the scenarios and exit
 * @param quick run briefly
 * @param outputDirectory where reports go
 * @param variant the one variant to run alone (for a profiler; no report), or null for a side-by-side run
 * @param rounds measured rounds per variant (0: the scenario's plan)
 * @param forks how many fresh JVMs run the side-by-side run one after another (1: one run, no fork summary)
 * @param inProcess run in this JVM as started, instead of in a child JVM with a fixed pre-touched heap
 */
record HarnessArguments(
        List<String> scenarios,
        boolean list,
        boolean quick,
        Path outputDirectory,
        String variant,
        int rounds,
        int forks,
        boolean inProcess) {

    /** Where reports go unless {@code --out} says otherwise (relative to the project root). */
    static final Path DEFAULT_OUTPUT = Path.of("benchmarks", "results");

    static final String COMMAND = "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness";

    static final String USAGE = "usage: " + COMMAND
            + " <scenario...>|--list [--quick] [--out DIR] [--rounds N] [--forks N] [--variant NAME]"
            + " [--in-process]\n"
            + "  --list          print the scenarios and exit\n"
            + "  --quick         a few seconds per scenario (smoke test; do not publish these figures)\n"
            + "  --out DIR       where <scenario>.md/.csv/.png go (default " + DEFAULT_OUTPUT + ")\n"
            + "  --variant NAME  run only the variant of that name (a report row's label), printing each round's\n"
            + "                  values and writing no report: for attaching perf, strace or JFR to one variant\n"
            + "  --rounds N      N measured rounds per variant (1..100000) instead of the scenario's plan: more\n"
            + "                  rounds narrow a ratio's spread, each round takes the scenario's round length\n"
            + "  --forks N       repeat the run in N fresh JVMs one after another (2..100): each writes its report\n"
            + "                  to DIR/fork-<n>/, and DIR/<scenario>-forks.md/.csv give each ratio's median over\n"
            + "                  the JVMs with an interval that covers what changes from one JVM to the next\n"
            + "  --in-process    run in this JVM as started; by default the scenarios run in a child JVM with a\n"
            + "                  fixed, pre-touched heap (-Xms" + PreTouchedJvm.HEAP + " -Xmx" + PreTouchedJvm.HEAP
            + " -XX:+AlwaysPreTouch), so no round pays for the heap growing";

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
        String variant = null;
        int rounds = 0;
        int forks = 1;
        boolean inProcess = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--list" -> list = true;
                case "--quick" -> quick = true;
                case "--in-process" -> inProcess = true;
                case "--out" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("--out needs a directory");
                    }
                    out = Path.of(args.get(++i));
                }
                case "--variant" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("--variant needs a variant name");
                    }
                    variant = args.get(++i);
                }
                case "--rounds" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("--rounds needs a number of rounds");
                    }
                    rounds = roundsOf(args.get(++i));
                }
                case "--forks" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("--forks needs a number of JVMs");
                    }
                    forks = forksOf(args.get(++i));
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
        if (forks > 1 && (variant != null || inProcess)) {
            throw new IllegalArgumentException("--forks runs side-by-side runs in fresh JVMs: not with "
                    + (variant != null ? "--variant" : "--in-process"));
        }
        return new HarnessArguments(scenarios, list, quick, out, variant, rounds, forks, inProcess);
    }

    private static int roundsOf(String value) {
        return wholeNumber("--rounds", value, 1, 100_000);
    }

    private static int forksOf(String value) {
        return wholeNumber("--forks", value, 2, 100);
    }

    private static int wholeNumber(String option, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a whole number in " + min + ".." + max + ": " + value);
    }

    /** The command line of fork {@code n} (from 1): the same run, without forks, reporting to DIR/fork-n. */
    List<String> forkArguments(int n) {
        List<String> args = new ArrayList<>(scenarios);
        if (quick) {
            args.add("--quick");
        }
        if (rounds > 0) {
            args.add("--rounds");
            args.add(Integer.toString(rounds));
        }
        args.add("--out");
        args.add(forkDirectory(n).toString());
        return args;
    }

    /** Where fork {@code n} (from 1) writes its reports. */
    Path forkDirectory(int n) {
        return outputDirectory.resolve("fork-" + n);
    }

    /** The command line that reproduces one scenario's report with these options. */
    String reproduce(String scenario) {
        StringBuilder command = new StringBuilder(COMMAND).append(' ').append(scenario);
        if (quick) {
            command.append(" --quick");
        }
        if (rounds > 0) {
            command.append(" --rounds ").append(rounds);
        }
        if (forks > 1) {
            command.append(" --forks ").append(forks);
        }
        if (!outputDirectory.equals(DEFAULT_OUTPUT)) {
            command.append(" --out ").append(outputDirectory);
        }
        return command.toString();
    }
}
