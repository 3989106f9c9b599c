package org.rouse.benchmarks.timer;

/**
 * {@code timer-spin}: 10,000 periodic timers at 50 ms on Rouse with {@code spin.micros} at 0 (never spin), 5 (the
 * default), 10 and 20 µs, beside {@code ScheduledThreadPoolExecutor}: whether a worker that waits only a few
 * microseconds for the next deadline should spin through the wait instead of parking, in lateness and in CPU.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness timer-spin
 * }</pre>
 */
public final class TimerSpin extends EngineSettingSweep {

    public TimerSpin() {
        super(micros -> TimerBackend.Rouse.withSpin(4, micros), 0, 5, 10, 20);
    }

    @Override
    public String name() {
        return "timer-spin";
    }

    @Override
    public String description() {
        return "10,000 fixed-rate timers every 50 ms, phases spread over the period: lateness of each event (handler"
                + " start minus due time), CPU and CPU per event, for Rouse with exact deadlines (4 workers, the"
                + " default kernel slack) and spin.micros (a wait for the next deadline up to this long is spun"
                + " through instead of parked) at 0, 5 (the default), 10 and 20, against ScheduledThreadPoolExecutor"
                + " (4 threads).";
    }

    @Override
    String rowName(long micros) {
        return "Rouse, spin " + micros + " µs";
    }
}
