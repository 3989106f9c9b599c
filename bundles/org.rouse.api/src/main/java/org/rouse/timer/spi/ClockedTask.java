package org.rouse.timer.spi;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A task handed to {@link TimerEngine#execute(Runnable)} that can share the engine's clock readings. An engine that
 * has just read {@link System#nanoTime()} before running a task may call {@link #run(long)} instead of
 * {@link #run()}: the task then reads the clock once, at the end of its work, instead of at its start and end, and
 * the engine takes that end reading as its own. A timer's firing then costs two clock reads instead of four, which
 * matters where a read costs tens of nanoseconds. Engines that do not know this interface call {@link #run()}, which
 * is always correct. (Since 1.3.)
 *
 * <pre>{@code
 * long now = System.nanoTime();   // the engine's reading as it takes the task
 * long end = task instanceof ClockedTask clocked ? clocked.run(now) : runAndRead(task);
 * }</pre>
 */
@ProviderType
public interface ClockedTask extends Runnable {

    /**
     * Runs the task, as {@link #run()} does.
     *
     * @param startNanos a {@link System#nanoTime()} reading the caller took on this thread as it took the task, with
     *     only its own short bookkeeping between (no park or unpark, no wait for a lock held for long): the task may
     *     take it for its start time, early by that bookkeeping and by the task's own first steps
     * @return a {@link System#nanoTime()} reading taken once the task's own work is done: what may follow it is
     *     bookkeeping, such as arming the next period in the engine, which the engine should not count as the task's
     *     run time
     */
    long run(long startNanos);
}
