package org.rouse.benchmarks;

import java.util.List;
import java.util.Optional;
import org.rouse.benchmarks.scenario.Scenario;
import org.rouse.benchmarks.wakeup.WakeupFloor;

/**
 * Every scenario the {@link Harness} knows. To add one, implement {@link Scenario} in its own package and list it here.
 *
 * <pre>{@code
 * Scenarios.named("wakeup-floor").orElseThrow();
 * }</pre>
 */
public final class Scenarios {

    private Scenarios() {}

    /** Fresh instances of every scenario, in the order {@code --list} shows them. */
    public static List<Scenario> all() {
        return List.of(
                new WakeupFloor(),
                new org.rouse.benchmarks.timer.TimerReentry(),
                new org.rouse.benchmarks.timer.TimerLateness(),
                new org.rouse.benchmarks.timer.TimerKernelSlack(),
                new org.rouse.benchmarks.timer.TimerHelpAfter(),
                new org.rouse.benchmarks.timer.TimerSpin(),
                new org.rouse.benchmarks.timer.TimerSlack(),
                new org.rouse.benchmarks.timer.TimerScaling(),
                new org.rouse.benchmarks.timer.TimerIdle(),
                new org.rouse.benchmarks.lock.LockContention(16),
                new org.rouse.benchmarks.lock.LockContention(2),
                new org.rouse.benchmarks.lock.LockContention(64),
                org.rouse.benchmarks.lock.LockContention.fairnessCost(16),
                org.rouse.benchmarks.lock.LockContention.fairnessCost(64),
                org.rouse.benchmarks.lock.LockContention.facadeCost(16),
                org.rouse.benchmarks.lock.LockContention.facadeCost(64),
                new org.rouse.benchmarks.lock.LockSwap(),
                new org.rouse.benchmarks.lock.ReadMostly(),
                org.rouse.benchmarks.lock.ReadMostly.writeHeavy(),
                new org.rouse.benchmarks.lock.ReadWriteSwap(),
                new org.rouse.benchmarks.selector.SelectorSequential(1),
                new org.rouse.benchmarks.selector.SelectorSequential(16),
                new org.rouse.benchmarks.selector.SelectorSequential(256),
                new org.rouse.benchmarks.selector.SelectorThinkTime(16, 60),
                new org.rouse.benchmarks.selector.SelectorBursts(),
                new org.rouse.benchmarks.selector.SelectorStorm());
    }

    /** The scenario called {@code name}, if there is one. */
    public static Optional<Scenario> named(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
