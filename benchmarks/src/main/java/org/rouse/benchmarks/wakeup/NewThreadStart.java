package org.rouse.benchmarks.wakeup;

import java.time.Duration;
import org.rouse.benchmarks.measure.CallerCost;
import org.rouse.benchmarks.measure.ThreadUsage;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.RoundRecorder;
import org.rouse.benchmarks.scenario.Variant;

/**
 * The alternative to an idle pool thread: start a new {@link Thread} for the work. Latency is from just before
 * {@code new Thread(..)} until its {@code run()} begins.
 *
 * <p>Implementation notes: one thread at a time; the driver joins it before the next (the join is pacing and is not
 * counted). The new thread's own CPU time and context switches are counted from its birth (the JVM's per-thread
 * start-up work runs on it before {@code run()}), read at the end of {@code run()}; its exit is not counted. The
 * driver's cost counts inside {@code new Thread(..).start()} ({@link CallerCost}), which includes waiting for the
 * native thread to come up.
 */
final class NewThreadStart implements Variant {

    /** When the latest thread's run() began; written by that thread, read by the driver after join(). */
    private long arrivalNanos;
    /** The latest thread's usage over its life; written by that thread, read by the driver after join(). */
    private ThreadUsage childUsage = ThreadUsage.ZERO;

    private final Runnable body = () -> {
        arrivalNanos = System.nanoTime();
        childUsage = ThreadUsage.end();
    };

    @Override
    public String name() {
        return "new Thread";
    }

    @Override
    public String description() {
        return "from new Thread(task).start() until task.run() begins on the new thread";
    }

    @Override
    public Measurement runRound(Duration budget) throws InterruptedException {
        RoundRecorder round = RoundRecorder.start();
        CallerCost caller = new CallerCost();
        long stop = System.nanoTime() + budget.toNanos();
        do {
            caller.begin();
            long start = System.nanoTime();
            Thread thread = new Thread(body, "rouse-bench-new-thread");
            thread.setDaemon(true);
            thread.start();
            caller.end();
            thread.join();
            round.recordLatencyNanos(arrivalNanos - start);
            round.addThreadUsage(childUsage);
        } while (System.nanoTime() - stop < 0);
        round.addThreadUsage(caller.total());
        return round.finish();
    }
}
