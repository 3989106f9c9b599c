package org.rouse.benchmarks.timer;

import io.netty.util.HashedWheelTimer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.internal.WheelTimerEngine;

/**
 * One timer implementation as the timer scenarios drive it: periodic "scripts" that report how late each event ran,
 * and far one-shots. Every backend runs its handlers where that implementation runs them.
 */
abstract class TimerBackend implements AutoCloseable {

    /** Receives one event of a periodic timer: which one, when it was due and when it ran ({@code nanoTime}). */
    interface Events {
        void fired(int timer, long dueNanos, long ranNanos);
    }

    private final String name;

    TimerBackend(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    /** Starts {@code count} fixed-rate timers, timer {@code i} first due at {@code firstDue[i]}. */
    abstract void startPeriodic(long[] firstDue, long periodNanos, Events events);

    /** Arms {@code count} one-shots due from {@code delay} on (spread by 10 µs each), never to be run. */
    abstract void armFar(int count, Duration delay);

    /** Cancels everything started, and stops any thread of the backend that would wake between rounds. */
    abstract void stopAll();

    /** The name prefix of the thread that waits for deadlines (as in {@code /proc/self/task/N/comm}). */
    abstract String timerThreadName();

    /**
     * The engine's own wake-up counts so far, {@link WakeCounts#NONE} for a backend that keeps none: the wheel engine's
     * returns from park, and among them its watchdog's.
     */
    WakeCounts wakeCounts() {
        return WakeCounts.NONE;
    }

    /** Cumulative wake-up counts of a backend's threads; {@code -1} where it keeps no count. */
    record WakeCounts(long wakeups, long watchdogWakeups) {
        static final WakeCounts NONE = new WakeCounts(-1, -1);
    }

    @Override
    public abstract void close() throws Exception;

    static ThreadFactory named(String name) {
        AtomicInteger next = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Rouse: the wheel engine behind the real front, one owner per timer. */
    static final class Rouse extends TimerBackend {
        private final TimerFrontCore core = new TimerFrontCore();
        private final WheelTimerEngine engine;
        private final BundleTimerView view;
        private final List<TimerOwner> owners = new ArrayList<>();

        Rouse(int workers) {
            this(workers, 0);
        }

        /** With a timer slack of {@code slackMicros} (0: exact deadlines). */
        Rouse(int workers, long slackMicros) {
            this(
                    slackMicros == 0 ? "Rouse" : "Rouse slack " + slackMicros + " µs",
                    WheelTimerEngine.started(workers, WheelTimerEngine.DEFAULT_SPIN_MICROS, 1000, slackMicros));
        }

        /**
         * With exact deadlines and {@code kernelSlackMicros} of kernel timer slack per worker (0: the kernel's own,
         * 50 µs for a Linux thread).
         */
        static Rouse withKernelSlack(int workers, long kernelSlackMicros) {
            return new Rouse(
                    "Rouse, kernel slack " + (kernelSlackMicros == 0 ? "default" : kernelSlackMicros + " µs"),
                    WheelTimerEngine.started(
                            workers,
                            WheelTimerEngine.DEFAULT_SPIN_MICROS,
                            1000,
                            0,
                            WheelTimerEngine.DEFAULT_HELP_AFTER_MICROS,
                            kernelSlackMicros));
        }

        /** With exact deadlines, the default kernel slack and {@code help.after.micros} of {@code helpAfterMicros}. */
        static Rouse withHelpAfter(int workers, long helpAfterMicros) {
            return new Rouse(
                    "Rouse, help after " + helpAfterMicros + " µs",
                    WheelTimerEngine.started(workers, WheelTimerEngine.DEFAULT_SPIN_MICROS, 1000, 0, helpAfterMicros));
        }

        /** With exact deadlines, the default kernel slack and {@code spin.micros} of {@code spinMicros}. */
        static Rouse withSpin(int workers, long spinMicros) {
            return new Rouse("Rouse, spin " + spinMicros + " µs", WheelTimerEngine.started(workers, spinMicros, 1000));
        }

        private Rouse(String name, WheelTimerEngine engine) {
            super(name);
            this.engine = engine;
            core.swapTo(engine);
            view = core.newView("benchmark");
        }

        @Override
        WakeCounts wakeCounts() {
            return new WakeCounts(engine.dispatcherWakeups(), engine.watchdogWakeups());
        }

        @Override
        void startPeriodic(long[] firstDue, long periodNanos, Events events) {
            for (int i = 0; i < firstDue.length; i++) {
                int timer = i;
                TimerOwner owner = view.owner("script-" + i);
                owners.add(owner);
                owner.scheduleAtFixedRate(
                        Duration.ofNanos(Math.max(0, firstDue[i] - System.nanoTime())),
                        Duration.ofNanos(periodNanos),
                        e -> events.fired(timer, e.deadlineNanos(), System.nanoTime()));
            }
        }

        @Override
        void armFar(int count, Duration delay) {
            TimerOwner owner = view.owner("far");
            owners.add(owner);
            for (int i = 0; i < count; i++) {
                owner.schedule(delay.plusNanos(i * 10_000L), e -> {});
            }
        }

        @Override
        void stopAll() {
            owners.forEach(TimerOwner::close);
            owners.clear();
        }

        @Override
        String timerThreadName() {
            return "rouse-timer-wor"; // the workers take turns waiting for deadlines
        }

        @Override
        public void close() {
            stopAll();
            core.release(view);
            core.swapTo(null);
            engine.shutdown();
        }
    }

    /** {@link ScheduledThreadPoolExecutor} with remove-on-cancel; handlers on its own threads. */
    static final class Stpe extends TimerBackend {
        private final ScheduledThreadPoolExecutor executor;
        private final List<ScheduledFuture<?>> futures = new ArrayList<>();

        Stpe(int threads) {
            super("ScheduledThreadPoolExecutor");
            executor = new ScheduledThreadPoolExecutor(threads, named("bench-stpe-"));
            executor.setRemoveOnCancelPolicy(true);
        }

        @Override
        void startPeriodic(long[] firstDue, long periodNanos, Events events) {
            for (int i = 0; i < firstDue.length; i++) {
                int timer = i;
                long first = firstDue[i];
                long[] run = new long[1];
                futures.add(executor.scheduleAtFixedRate(
                        () -> events.fired(timer, first + run[0]++ * periodNanos, System.nanoTime()),
                        Math.max(0, first - System.nanoTime()),
                        periodNanos,
                        TimeUnit.NANOSECONDS));
            }
        }

        @Override
        void armFar(int count, Duration delay) {
            for (int i = 0; i < count; i++) {
                futures.add(executor.schedule(() -> {}, delay.toNanos() + i * 10_000L, TimeUnit.NANOSECONDS));
            }
        }

        @Override
        void stopAll() {
            futures.forEach(f -> f.cancel(false));
            futures.clear();
        }

        @Override
        String timerThreadName() {
            return "bench-stpe-0";
        }

        @Override
        public void close() throws InterruptedException {
            executor.shutdownNow();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Netty's {@code HashedWheelTimer}: ticks every {@code tick}; handlers on its single worker thread. A timer runs
     * only while this backend has work (from {@code startPeriodic} or {@code armFar} until {@code stopAll}): its
     * worker ticks even with nothing scheduled, and in an interleaved run an open timer left ticking between its own
     * rounds would add those wake-ups (about a thousand a second at a 1 ms tick) to every other variant's round.
     * ({@code timer-idle} arms every backend for its whole run, which is what its own row measures, so there it ticks
     * throughout and the other rows' process CPU includes it.)
     */
    static final class Netty extends TimerBackend {
        private final long tickNanos;
        private final String threadName;
        /** The running timer, or null between rounds; only the harness's thread starts and stops it. */
        private HashedWheelTimer timer;

        private volatile boolean stopped;

        Netty(Duration tick) {
            super("HashedWheelTimer " + tick.toMillis() + " ms tick");
            // unique within the 15 characters /proc keeps, so that timer-idle finds this one's thread
            threadName = "bench-hwt" + tick.toMillis() + "-";
            tickNanos = tick.toNanos();
        }

        /** The running timer, started if none is: one worker thread, always named {@link #timerThreadName()}. */
        private HashedWheelTimer running() {
            if (timer == null) {
                timer = new HashedWheelTimer(named(threadName), tickNanos, TimeUnit.NANOSECONDS, 512);
                timer.start();
            }
            return timer;
        }

        @Override
        void startPeriodic(long[] firstDue, long periodNanos, Events events) {
            stopped = false;
            HashedWheelTimer wheel = running();
            for (int i = 0; i < firstDue.length; i++) {
                chain(wheel, i, firstDue[i], periodNanos, events);
            }
        }

        /** No periodic timers in Netty: each event arms the next, on the phase. */
        private void chain(HashedWheelTimer wheel, int index, long due, long periodNanos, Events events) {
            if (stopped) {
                return;
            }
            wheel.newTimeout(
                    t -> {
                        long ran = System.nanoTime();
                        events.fired(index, due, ran);
                        long next = due + periodNanos;
                        while (next - ran < 0) {
                            next += periodNanos;
                        }
                        chain(wheel, index, next, periodNanos, events);
                    },
                    Math.max(0, due - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
        }

        @Override
        void armFar(int count, Duration delay) {
            HashedWheelTimer wheel = running();
            for (int i = 0; i < count; i++) {
                wheel.newTimeout(t -> {}, delay.toNanos() + i * 10_000L, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        void stopAll() {
            stopped = true;
            if (timer != null) {
                timer.stop(); // cancels what is left and waits for the worker to end
                timer = null;
            }
        }

        @Override
        String timerThreadName() {
            return threadName + "0";
        }

        @Override
        public void close() {
            stopAll();
        }
    }

    /**
     * OpenSim's way: one thread sleeps {@code poll}, then scans every timer and runs the ones due (their next due time
     * kept on the phase).
     */
    static final class SleepPoll extends TimerBackend {
        private final long pollMillis;
        private volatile Thread loop;

        SleepPoll(Duration poll) {
            super("sleep-poll " + poll.toMillis() + " ms");
            this.pollMillis = poll.toMillis();
        }

        @Override
        void startPeriodic(long[] firstDue, long periodNanos, Events events) {
            long[] due = firstDue.clone();
            Thread thread = new Thread(
                    () -> {
                        while (!Thread.currentThread().isInterrupted()) {
                            try {
                                Thread.sleep(pollMillis);
                            } catch (InterruptedException e) {
                                return;
                            }
                            long now = System.nanoTime();
                            for (int i = 0; i < due.length; i++) {
                                if (due[i] - now <= 0) {
                                    events.fired(i, due[i], System.nanoTime());
                                    while (due[i] - now <= 0) {
                                        due[i] += periodNanos;
                                    }
                                }
                            }
                        }
                    },
                    "bench-poll-0");
            thread.setDaemon(true);
            loop = thread;
            thread.start();
        }

        @Override
        void armFar(int count, Duration delay) {
            throw new UnsupportedOperationException("not an idle contender");
        }

        @Override
        void stopAll() {
            Thread thread = loop;
            if (thread != null) {
                thread.interrupt();
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                loop = null;
            }
        }

        @Override
        String timerThreadName() {
            return "bench-poll-0";
        }

        @Override
        public void close() {
            stopAll();
        }
    }
}
