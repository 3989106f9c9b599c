package org.rouse.benchmarks.wakeup;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.rouse.benchmarks.measure.CallerCost;
import org.rouse.benchmarks.measure.IdleWait;
import org.rouse.benchmarks.measure.KernelThread;
import org.rouse.benchmarks.measure.ThreadUsage;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.RoundRecorder;
import org.rouse.benchmarks.scenario.Variant;

/**
 * Hand-off latency to an idle {@link ThreadPoolExecutor} thread: from {@code execute(task)} until the task starts on
 * the pool's one worker, which was parked in its queue's {@code take()}. The floor under "run the handler on a worker".
 *
 * <p>Implementation notes: the tasks are allocated once. Per operation the driver waits until the worker finished the
 * previous task and is blocked in the kernel ({@link IdleWait}), takes {@code t0}, calls {@code execute}. The worker
 * snapshots its own CPU time and context switches in a BEGIN and an END task of each round; the driver's cost counts
 * only inside {@code execute} ({@link CallerCost}).
 */
final class PoolHandoff implements Variant {

    private final IdleWait idle;
    private ThreadPoolExecutor pool;

    /** The worker's task; written by the worker in the first task, read by the driver after that task's future. */
    private volatile KernelThread workerTask;
    /** Tasks the worker has run; written only by the worker, after the fields below. */
    private volatile long completed;
    /** When the last operation task started; written by the worker before {@code completed}. */
    private long arrivalNanos;
    /** The worker's reading in the BEGIN task; worker only. */
    private ThreadUsage workerBegin = ThreadUsage.ZERO;
    /** The worker's usage between BEGIN and END; written by the worker before {@code completed}. */
    private ThreadUsage workerUsage = ThreadUsage.ZERO;
    /** Tasks handed to the pool; driver only. */
    private long issued;

    private final Runnable begin = () -> {
        workerBegin = ThreadUsage.begin();
        done();
    };
    private final Runnable operation = () -> {
        arrivalNanos = System.nanoTime();
        done();
    };
    private final Runnable end = () -> {
        workerUsage = ThreadUsage.end().minus(workerBegin);
        done();
    };

    PoolHandoff(IdleWait idle) {
        this.idle = idle;
    }

    @Override
    public String name() {
        return "idle pool thread";
    }

    @Override
    public String description() {
        return "from ThreadPoolExecutor.execute(task) until the task starts on the pool's idle (parked) thread";
    }

    @Override
    public void open() throws InterruptedException, ExecutionException {
        pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), task -> {
            Thread t = new Thread(task, "rouse-bench-pool-worker");
            t.setDaemon(true);
            return t;
        });
        pool.submit(() -> workerTask = KernelThread.current()).get();
    }

    @Override
    public Measurement runRound(Duration budget) {
        RoundRecorder round = RoundRecorder.start();
        CallerCost caller = new CallerCost();
        handOff(begin);
        long stop = System.nanoTime() + budget.toNanos();
        do {
            long target = ++issued;
            caller.begin();
            long start = System.nanoTime();
            pool.execute(operation);
            caller.end();
            idle.await(workerTask, () -> completed == target);
            round.recordLatencyNanos(arrivalNanos - start);
        } while (System.nanoTime() - stop < 0);
        handOff(end);
        round.addThreadUsage(workerUsage);
        round.addThreadUsage(caller.total());
        return round.finish();
    }

    @Override
    public void close() throws InterruptedException {
        if (pool != null) {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private void handOff(Runnable task) {
        long target = ++issued;
        pool.execute(task);
        idle.await(workerTask, () -> completed == target);
    }

    /** Worker only: publishes the fields written before it. */
    private void done() {
        completed = completed + 1;
    }
}
