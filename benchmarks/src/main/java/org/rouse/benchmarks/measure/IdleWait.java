package org.rouse.benchmarks.measure;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Paces a driver so that each measured wake-up finds its target idle: waits until the target has finished the previous
 * operation and its task is blocked in the kernel ({@link KernelThread#isBlocked()}), pausing between checks.
 *
 * <p>The pause is the benchmark's think time between operations, not a service polling for work; it also keeps the
 * driver off the CPU the target needs. Only the driver thread uses an instance.
 *
 * <pre>{@code
 * IdleWait idle = new IdleWait(Duration.ofNanos(50_000), Duration.ofSeconds(10));
 * idle.await(worker, () -> completed == issued);
 * }</pre>
 */
public final class IdleWait {

    private final long pauseNanos;
    private final long giveUpNanos;

    /**
     * @param pause the think time before each check
     * @param giveUp how long to wait before deciding the target is stuck
     * @throws IllegalArgumentException if a duration is not positive
     */
    public IdleWait(Duration pause, Duration giveUp) {
        if (pause.isNegative() || pause.isZero() || giveUp.isNegative() || giveUp.isZero()) {
            throw new IllegalArgumentException("pause and giveUp must be > 0: " + pause + ", " + giveUp);
        }
        this.pauseNanos = pause.toNanos();
        this.giveUpNanos = giveUp.toNanos();
    }

    /**
     * Returns once {@code finished} is true and {@code target} is blocked.
     *
     * @throws IllegalStateException if that does not happen within the give-up time
     */
    public void await(KernelThread target, BooleanSupplier finished) {
        long start = System.nanoTime();
        do {
            LockSupport.parkNanos(pauseNanos);
            if (finished.getAsBoolean() && target.isBlocked()) {
                return;
            }
        } while (System.nanoTime() - start < giveUpNanos);
        throw new IllegalStateException(target + " did not finish and block within " + Duration.ofNanos(giveUpNanos));
    }
}
