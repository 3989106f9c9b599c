package org.rouse.benchmarks.jmh;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerHandler;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.internal.WheelTimerEngine;
import org.rouse.timer.spi.TimerEntry;

/**
 * Schedule one timer and cancel it again, with {@code pending} other timers waiting (due in one to two hours): Rouse
 * (through the real front: owner, handle, wheel engine), the wheel engine alone ({@code arm}/{@code disarm} of a bare
 * entry: the data structure's share), {@code ScheduledThreadPoolExecutor} with remove-on-cancel, and Netty's
 * {@code HashedWheelTimer} (whose cancel only queues the removal for its next tick).
 *
 * <p>The forks run on a fixed, pre-touched heap: with the default heap a run at 1,000,000 pending grows a young
 * generation it never collects, so every allocation touches fresh pages, and on a VM those faults cost more than the
 * operation (Rouse 2.2 against 7.8 ops/µs, STPE 8.7 against 12.6, on one host: docs/performance.md, "Timers: one object per pending timer"). A long-running host has
 * touched its heap.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar TimerScheduleCancel                 # as annotated
 * java -jar benchmarks/target/benchmarks.jar TimerScheduleCancel -f 1 -wi 1 -i 2 -r 1s -p pending=0,10000
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class TimerScheduleCancel {

    @Param({"rouse", "wheel-engine", "stpe", "netty"})
    public String impl;

    @Param({"0", "10000", "1000000"})
    public int pending;

    private static final TimerHandler NOTHING = e -> {};
    private static final Runnable NO_TASK = () -> {};
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    private TimerFrontCore core;
    private WheelTimerEngine engine;
    private BundleTimerView view;
    private BundleTimerView fillerView;
    private TimerOwner owner;
    private ScheduledThreadPoolExecutor stpe;
    private HashedWheelTimer netty;
    private long next;

    @Setup(Level.Trial)
    public void setUp() {
        switch (impl) {
            case "rouse" -> {
                core = new TimerFrontCore();
                engine = WheelTimerEngine.started(1);
                core.swapTo(engine);
                view = core.newView("jmh");
                owner = view.owner("jmh");
                fillerView = core.newView("jmh-filler"); // its own bundle view: the measured one stays below the cap
                TimerOwner filler = fillerView.owner("filler");
                for (int i = 0; i < pending; i++) {
                    filler.schedule(Duration.ofNanos(HOUR + i * 3_600L), NOTHING);
                }
            }
            case "wheel-engine" -> {
                engine = WheelTimerEngine.started(1);
                long now = System.nanoTime();
                for (int i = 0; i < pending; i++) {
                    engine.arm(new Entry(now + HOUR + i * 3_600L));
                }
            }
            case "stpe" -> {
                stpe = new ScheduledThreadPoolExecutor(1);
                stpe.setRemoveOnCancelPolicy(true);
                for (int i = 0; i < pending; i++) {
                    stpe.schedule(NO_TASK, HOUR + i * 3_600L, TimeUnit.NANOSECONDS);
                }
            }
            case "netty" -> {
                netty = new HashedWheelTimer();
                for (int i = 0; i < pending; i++) {
                    netty.newTimeout(t -> {}, HOUR + i * 3_600L, TimeUnit.NANOSECONDS);
                }
            }
            default -> throw new IllegalArgumentException("impl: " + impl);
        }
    }

    @Benchmark
    public boolean scheduleAndCancel() {
        long delay = HOUR + (next++ & 0xFFFF) * 50_000L; // among the pending ones
        return switch (impl) {
            case "rouse" -> {
                Timer timer = owner.schedule(Duration.ofNanos(delay), NOTHING);
                yield timer.cancel();
            }
            case "wheel-engine" -> {
                Entry entry = new Entry(System.nanoTime() + delay);
                engine.arm(entry);
                yield engine.disarm(entry);
            }
            case "stpe" -> {
                ScheduledFuture<?> future = stpe.schedule(NO_TASK, delay, TimeUnit.NANOSECONDS);
                yield future.cancel(false);
            }
            default -> {
                Timeout timeout = netty.newTimeout(t -> {}, delay, TimeUnit.NANOSECONDS);
                yield timeout.cancel();
            }
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        if (core != null) {
            core.release(view);
            core.release(fillerView);
            core.swapTo(null);
        }
        if (engine != null) {
            engine.shutdown();
        }
        if (stpe != null) {
            stpe.shutdownNow();
            stpe.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (netty != null) {
            netty.stop();
        }
    }

    /** A bare engine entry, as the front's arming is to the engine. */
    static final class Entry implements TimerEntry {
        private final long deadline;
        private Object slot;
        /** The engine's position and link for this entry; as the engine slot. */
        private int enginePosition;

        private int engineLink;

        Entry(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public long deadlineNanos() {
            return deadline;
        }

        @Override
        public void expire() {}

        @Override
        public Object engineSlot() {
            return slot;
        }

        @Override
        public void engineSlot(Object slot) {
            this.slot = slot;
        }

        @Override
        public int enginePosition() {

            return enginePosition;
        }

        @Override
        public void enginePosition(int position) {

            enginePosition = position;
        }

        @Override
        public int engineLink() {

            return engineLink;
        }

        @Override
        public void engineLink(int link) {

            engineLink = link;
        }
    }
}
