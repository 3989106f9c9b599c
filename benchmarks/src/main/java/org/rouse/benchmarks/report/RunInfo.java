package org.rouse.benchmarks.report;

import java.util.Objects;
import org.rouse.benchmarks.scenario.RoundPlan;

/**
 * The circumstances of a run, printed in the report header.
 *
 * @param machine where it ran
 * @param command the exact command line that reproduces the report
 * @param plan the rounds that ran
 * @param stealPercent the machine's CPU time stolen by the hypervisor during the run, in percent
 *     ({@link org.rouse.benchmarks.measure.CpuSteal}); NaN if unknown
 */
public record RunInfo(MachineInfo machine, String command, RoundPlan plan, double stealPercent) {

    public RunInfo {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(plan, "plan");
    }

    /** A run whose steal time was not measured. */
    public RunInfo(MachineInfo machine, String command, RoundPlan plan) {
        this(machine, command, plan, Double.NaN);
    }
}
