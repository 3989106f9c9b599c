package org.rouse.benchmarks.wakeup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.rouse.benchmarks.measure.CallerCost;
import org.rouse.benchmarks.measure.IdleWait;
import org.rouse.benchmarks.measure.KernelThread;
import org.rouse.benchmarks.measure.ThreadUsage;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.RoundRecorder;
import org.rouse.benchmarks.scenario.Variant;

/**
 * Cross-thread wake latency of a thread blocked in {@code Selector.select()} (no channels, no timeout) when another
 * thread calls {@code Selector.wakeup()}: the floor under every "re-arm and poke the selector" of the selector goal.
 *
 * <p>Implementation notes: the loop thread does nothing but select and obey the driver's last command. Per operation
 * the driver (the round's caller) waits until the loop has handled the previous wake and its task is blocked in the
 * kernel ({@link IdleWait}), so every wake really interrupts {@code epoll_wait}; then it takes {@code t0} and calls
 * {@code wakeup()}. Latency is the loop's first {@code nanoTime()} after {@code select()} returns minus {@code t0}.
 * The loop snapshots its own CPU time and context switches on the BEGIN and END commands; its window therefore
 * holds one wake more than the operations counted (1/n error). The driver's CPU and switches count only inside
 * {@code wakeup()} ({@link CallerCost}), not while pacing.
 */
final class SelectorWakeup implements Variant {

    private enum Command {
        BEGIN,
        OPERATION,
        END,
        STOP
    }

    private final IdleWait idle;
    private Selector selector;
    private Thread loop;

    /** The loop's task, for the idle check; written by the loop before {@code started} counts down. */
    private volatile KernelThread loopTask;
    /** What the next wake means; written by the driver before {@code wakeup()}, read by the loop after it. */
    private volatile Command command = Command.OPERATION;
    /** Commands the loop has handled; written only by the loop, after the fields below. */
    private volatile long handled;
    /** When the loop saw the last OPERATION wake; written by the loop before {@code handled}. */
    private long arrivalNanos;
    /** The loop's reading at BEGIN; written and read by the loop only. */
    private ThreadUsage loopBegin = ThreadUsage.ZERO;
    /** The loop's usage between BEGIN and END; written by the loop before {@code handled}. */
    private ThreadUsage loopUsage = ThreadUsage.ZERO;
    /** Commands issued; driver only. */
    private long issued;

    SelectorWakeup(IdleWait idle) {
        this.idle = idle;
    }

    @Override
    public String name() {
        return "Selector.wakeup()";
    }

    @Override
    public String description() {
        return "from Selector.wakeup() on one thread until select() returns on the thread blocked in it";
    }

    @Override
    public void open() throws IOException, InterruptedException {
        selector = Selector.open();
        CountDownLatch started = new CountDownLatch(1);
        loop = new Thread(() -> runLoop(started), "rouse-bench-selector-loop");
        loop.setDaemon(true);
        loop.start();
        started.await();
    }

    @Override
    public Measurement runRound(Duration budget) {
        RoundRecorder round = RoundRecorder.start();
        CallerCost caller = new CallerCost();
        issue(Command.BEGIN);
        long end = System.nanoTime() + budget.toNanos();
        do {
            command = Command.OPERATION;
            long target = ++issued;
            caller.begin();
            long start = System.nanoTime();
            selector.wakeup();
            caller.end();
            idle.await(loopTask, () -> handled == target);
            round.recordLatencyNanos(arrivalNanos - start);
        } while (System.nanoTime() - end < 0);
        issue(Command.END);
        round.addThreadUsage(loopUsage);
        round.addThreadUsage(caller.total());
        return round.finish();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (loop != null) {
            command = Command.STOP;
            selector.wakeup();
            loop.join(TimeUnit.SECONDS.toMillis(10));
        }
        if (selector != null) {
            selector.close();
        }
    }

    private void issue(Command next) {
        command = next;
        long target = ++issued;
        selector.wakeup();
        idle.await(loopTask, () -> handled == target);
    }

    private void runLoop(CountDownLatch started) {
        loopTask = KernelThread.current();
        started.countDown();
        long count = 0;
        try {
            while (true) {
                selector.select();
                long arrival = System.nanoTime();
                switch (command) {
                    case BEGIN -> loopBegin = ThreadUsage.begin();
                    case OPERATION -> arrivalNanos = arrival;
                    case END -> loopUsage = ThreadUsage.end().minus(loopBegin);
                    case STOP -> {
                        return;
                    }
                }
                handled = ++count;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
