package org.rouse.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rouse.benchmarks.report.ForkReport;
import org.rouse.benchmarks.report.ForkTable;
import org.rouse.benchmarks.report.MachineInfo;
import org.rouse.benchmarks.report.MarkdownReport;
import org.rouse.benchmarks.scenario.Scenario;

/**
 * Runs the side-by-side run of {@code --forks N} in N fresh pre-touched JVMs ({@link PreTouchedJvm}), one after
 * another, each writing its own reports to {@code DIR/fork-<n>/}, and then writes per scenario what the forks' ratios
 * say together ({@link ForkTable}, {@link ForkReport}).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness lock-facade-16 --forks 8 --out /tmp/f
 * # /tmp/f/fork-1/lock-facade-16.md ... /tmp/f/fork-8/lock-facade-16.md, /tmp/f/lock-facade-16-forks.md
 * }</pre>
 */
final class ForkedRuns {

    private ForkedRuns() {}

    /**
     * Runs the forks and writes the summaries; the forks' own output goes to this process's standard streams.
     *
     * @return the exit status: 0, or 1 when a fork failed or its reports could not be read
     */
    static int run(List<Scenario> scenarios, HarnessArguments arguments, PrintStream out, PrintStream err) {
        MachineInfo machine = MachineInfo.current();
        try {
            for (int n = 1; n <= arguments.forks(); n++) {
                err.println("fork " + n + " of " + arguments.forks());
                int status = PreTouchedJvm.run(arguments.forkArguments(n));
                if (status != 0) {
                    err.println("fork " + n + " failed (exit status " + status + "); no summary written");
                    return 1;
                }
            }
            for (Scenario scenario : scenarios) {
                List<Path> reports = new ArrayList<>();
                for (int n = 1; n <= arguments.forks(); n++) {
                    reports.add(arguments.forkDirectory(n).resolve(scenario.name() + ".csv"));
                }
                ForkTable table =
                        ForkTable.read(scenario.name(), scenario.layout().ratioColumns(), reports);
                String command = arguments.reproduce(scenario.name());
                // the forks' JVM (a child with its own heap), as the first fork's page states it, not this one's
                MachineInfo forks = MarkdownReport.jdkStatedIn(
                                arguments.forkDirectory(1).resolve(scenario.name() + ".md"))
                        .map(machine::withJdk)
                        .orElse(machine);
                List<Path> files = ForkReport.write(table, forks, command, arguments.outputDirectory());
                out.println(ForkReport.markdown(table, forks, command));
                files.forEach(f -> err.println("wrote " + f));
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("the forks' reports could not be summarized:");
            e.printStackTrace(err);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }
}
