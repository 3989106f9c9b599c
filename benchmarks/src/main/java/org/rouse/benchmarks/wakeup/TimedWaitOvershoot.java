package org.rouse.benchmarks.wakeup;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.rouse.benchmarks.measure.ThreadUsage;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.RoundRecorder;
import org.rouse.benchmarks.scenario.Variant;

/**
 * How much later than asked a thread returns from a timed wait ({@code LockSupport.parkNanos}, {@code Thread.sleep}):
 * the floor under any timer that sleeps until its next deadline. One thread waits back to back; latency is
 * {@code elapsed - requested} (an early, spurious return counts as zero); CPU and context switches are that thread's.
 */
final class TimedWaitOvershoot implements Variant {

    /** A timed wait of about the given number of nanoseconds. */
    @FunctionalInterface
    interface TimedWait {
        void await(long nanos) throws InterruptedException;
    }

    private final String name;
    private final String description;
    private final long requestedNanos;
    private final TimedWait wait;

    private TimedWaitOvershoot(String name, String description, Duration requested, TimedWait wait) {
        this.name = name;
        this.description = description;
        this.requestedNanos = requested.toNanos();
        this.wait = Objects.requireNonNull(wait, "wait");
    }

    /** {@code LockSupport.parkNanos(requested)}. */
    static TimedWaitOvershoot parkNanos(String name, Duration requested) {
        return new TimedWaitOvershoot(
                name,
                "overshoot of LockSupport.parkNanos(" + requested.toNanos() + " ns) over the requested time",
                requested,
                LockSupport::parkNanos);
    }

    /** {@code Thread.sleep(millis)}. */
    static TimedWaitOvershoot sleep(String name, long millis) {
        return new TimedWaitOvershoot(
                name,
                "overshoot of Thread.sleep(" + millis + ") over the requested time",
                Duration.ofMillis(millis),
                nanos -> Thread.sleep(millis));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Measurement runRound(Duration budget) throws InterruptedException {
        RoundRecorder round = RoundRecorder.start();
        ThreadUsage begin = ThreadUsage.begin();
        long end = System.nanoTime() + budget.toNanos();
        long now;
        do {
            long start = System.nanoTime();
            wait.await(requestedNanos);
            now = System.nanoTime();
            round.recordLatencyNanos(now - start - requestedNanos);
        } while (now - end < 0);
        round.addThreadUsage(ThreadUsage.end().minus(begin));
        return round.finish();
    }
}
