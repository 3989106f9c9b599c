package org.rouse.benchmarks.timer;

/**
 * {@code timer-kernel-slack}: 10,000 periodic timers at 50 ms on Rouse with exact deadlines and each worker's Linux
 * timer slack ({@code kernel.slack.micros}) at the kernel's default (50 µs), 20, 10, 5 and 1 µs, beside
 * {@code ScheduledThreadPoolExecutor}: what waking closer to a deadline buys in lateness and costs in CPU.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-kernel-slack
 * }</pre>
 */
public final class TimerKernelSlack extends EngineSettingSweep {

    public TimerKernelSlack() {
        super(micros -> TimerBackend.Rouse.withKernelSlack(4, micros), 0, 20, 10, 5, 1);
    }

    @Override
    public String name() {
        return "timer-kernel-slack";
    }

    @Override
    public String description() {
        return "10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event (handler"
                + " start minus due time), CPU and CPU per event, for Rouse with exact deadlines (4 workers) and each"
                + " worker's Linux timer slack (kernel.slack.micros, prctl PR_SET_TIMERSLACK) at the kernel's default"
                + " (50 µs), 20, 10, 5 and 1 µs, against ScheduledThreadPoolExecutor (4 threads, the kernel's"
                + " default slack). Where the native helper is unavailable every Rouse row runs with the default.";
    }

    @Override
    String rowName(long micros) {
        return "Rouse, kernel slack " + (micros == 0 ? "default" : micros + " µs");
    }
}
