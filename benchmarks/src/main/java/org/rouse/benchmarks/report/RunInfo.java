package org.rouse.benchmarks.report;

import java.util.Objects;
import org.rouse.benchmarks.scenario.RoundPlan;

/**
 * The circumstances of a run, printed in the report header.
 *
 * @param machine where it ran
 * @param command the exact command line that reproduces the report
 * @param plan the rounds that ran
 */
public record RunInfo(MachineInfo machine, String command, RoundPlan plan) {

    public RunInfo {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(plan, "plan");
    }
}
