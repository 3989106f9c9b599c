package org.rouse.benchmarks.timer;

/**
 * {@code timer-help-after}: 10,000 periodic timers at 50 ms on Rouse with {@code help.after.micros} at its default
 * (1,000 µs), 200, 50 and 0 (hand every batch over at once), beside {@code ScheduledThreadPoolExecutor}: how soon a
 * worker that runs the batch it fired should wake another one, in lateness and in CPU.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-help-after
 * }</pre>
 */
public final class TimerHelpAfter extends EngineSettingSweep {

    public TimerHelpAfter() {
        super(micros -> TimerBackend.Rouse.withHelpAfter(4, micros), 1000, 200, 50, 0);
    }

    @Override
    public String name() {
        return "timer-help-after";
    }

    @Override
    public String description() {
        return "10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event (handler"
                + " start minus due time), CPU and CPU per event, for Rouse with exact deadlines (4 workers, the"
                + " default kernel slack) and help.after.micros (how long queued handlers may wait behind the worker"
                + " that fired them before it wakes another) at 1000 (the default), 200, 50 and 0 (every batch handed"
                + " over at once), against ScheduledThreadPoolExecutor (4 threads).";
    }

    @Override
    String rowName(long micros) {
        return "Rouse, help after " + micros + " µs";
    }
}
