package org.rouse.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rouse.benchmarks.measure.CpuSteal;
import org.rouse.benchmarks.report.MachineInfo;
import org.rouse.benchmarks.report.MarkdownReport;
import org.rouse.benchmarks.report.ReportWriter;
import org.rouse.benchmarks.report.ResultTable;
import org.rouse.benchmarks.report.RunInfo;
import org.rouse.benchmarks.scenario.InterleavedRunner;
import org.rouse.benchmarks.scenario.Options;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.scenario.ScenarioResult;
import org.rouse.benchmarks.scenario.SingleVariantRunner;

/**
 * The side-by-side comparison harness: runs scenarios (Rouse variants and baselines interleaved in one JVM) and
 * writes a Markdown table, a CSV file and, where useful, a chart per scenario. The JVM is a child with a fixed,
 * pre-touched heap ({@link PreTouchedJvm}) unless {@code --in-process} is given or this JVM was started with
 * {@code -XX:+AlwaysPreTouch}; with {@code --forks N}, N such children one after another ({@link ForkedRuns}).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness --list
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness wakeup-floor [--quick] [--out DIR]
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness lock-facade-16 --forks 8  # 8 fresh JVMs
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness lock-contention \
 *     --variant "rouse adaptive, no work" --rounds 20     # one variant alone, e.g. under perf or strace
 * }</pre>
 *
 * Exit status: 0 on success, 1 when a scenario failed, 2 for a bad command line.
 */
public final class Harness {

    private Harness() {}

    public static void main(String[] args) {
        // charts are drawn off-screen; there is no display on build and CI machines
        System.setProperty("java.awt.headless", "true");
        List<String> arguments = Arrays.asList(args);
        int status = runsInChild(arguments) ? runInChild(arguments) : run(arguments, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Whether {@code args} run scenarios that belong in a pre-touched child JVM (a bad command line is run here). */
    private static boolean runsInChild(List<String> args) {
        try {
            HarnessArguments arguments = HarnessArguments.parse(args);
            return !arguments.list() && !arguments.inProcess() && arguments.forks() == 1 && !PreTouchedJvm.isCurrent();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static int runInChild(List<String> args) {
        try {
            return PreTouchedJvm.run(args);
        } catch (IOException e) {
            System.err.println("cannot start the harness's child JVM (use --in-process to run here): " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /**
     * Runs the command line {@code args} in this JVM: reports go to files, each scenario's table also to
     * {@code out}, progress and errors to {@code err}.
     *
     * @return the exit status
     */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        HarnessArguments arguments;
        List<Scenario> scenarios = new ArrayList<>();
        try {
            arguments = HarnessArguments.parse(args);
            for (String name : arguments.scenarios()) {
                scenarios.add(Scenarios.named(name)
                        .orElseThrow(() -> new IllegalArgumentException("no scenario named '" + name + "'")));
            }
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(HarnessArguments.USAGE);
            printList(err);
            return 2;
        }
        if (arguments.list()) {
            printList(out);
            return 0;
        }
        Options options = new Options(arguments.quick(), arguments.outputDirectory());
        if (arguments.variant() != null) {
            return runAlone(scenarios, arguments, options, out, err);
        }
        if (arguments.forks() > 1) {
            return ForkedRuns.run(scenarios, arguments, out, err);
        }
        for (Scenario scenario : scenarios) {
            try {
                MachineInfo machine = MachineInfo.current(); // before the run: its load average excludes our own
                CpuSteal.Sample stealBefore = CpuSteal.sample();
                ScenarioResult result = new InterleavedRunner(err).run(scenario, options, arguments.rounds());
                double steal = CpuSteal.percentSince(stealBefore);
                ResultTable table =
                        new ResultTable(scenario.name(), scenario.description(), scenario.layout(), result.variants());
                RunInfo run = new RunInfo(machine, arguments.reproduce(scenario.name()), result.plan(), steal);
                List<Path> files = ReportWriter.write(table, run, options.outputDirectory());
                out.println(MarkdownReport.render(table, run));
                files.forEach(f -> err.println("wrote " + f));
            } catch (Exception e) {
                err.println("scenario " + scenario.name() + " failed:");
                e.printStackTrace(err);
                return 1;
            }
        }
        return 0;
    }

    private static int runAlone(
            List<Scenario> scenarios, HarnessArguments arguments, Options options, PrintStream out, PrintStream err) {
        for (Scenario scenario : scenarios) {
            try {
                new SingleVariantRunner(out, err).run(scenario, arguments.variant(), arguments.rounds(), options);
            } catch (IllegalArgumentException e) {
                err.println(e.getMessage());
                return 2;
            } catch (Exception e) {
                err.println("scenario " + scenario.name() + " failed:");
                e.printStackTrace(err);
                return 1;
            }
        }
        return 0;
    }

    private static void printList(PrintStream to) {
        to.println("scenarios:");
        for (Scenario s : Scenarios.all()) {
            to.println("  " + s.name());
            to.println("      " + s.description().replace("`", ""));
        }
    }
}
