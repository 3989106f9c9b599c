package org.rouse.api.internal.events;

import org.rouse.api.internal.console.RecentSwaps;
import org.rouse.lock.spi.LockPrimitive;

/**
 * The fronts' one-line hooks for the JDK Flight Recorder events of the Rouse services. Each method first asks
 * whether its event is enabled in a running recording; only then does it read a clock, build strings or allocate.
 *
 * <table>
 * <caption>Events</caption>
 * <tr><th>event</th><th>when</th><th>fields</th><th>setting</th></tr>
 * <tr><td>{@code org.rouse.TimerLate}</td><td>a timer handler starts</td><td>owner, timer, lateness</td>
 *     <td>{@code latenessThreshold}</td></tr>
 * <tr><td>{@code org.rouse.LockContended}</td><td>a thread acquires a lock after waiting</td>
 *     <td>lock, strategy, wait (+ stack trace)</td><td>{@code waitThreshold}</td></tr>
 * <tr><td>{@code org.rouse.SlowUpcall}</td><td>a channel handler returns</td><td>bundle, channel, upcallDuration</td>
 *     <td>{@code durationThreshold}</td></tr>
 * <tr><td>{@code org.rouse.EngineSwap}</td><td>a front's {@code swapTo(engine)} ends</td>
 *     <td>service, from, to, pause, moved</td><td>(all recorded)</td></tr>
 * </table>
 *
 * <p>Usage, at an existing point of a front:
 *
 * <pre>{@code
 * counters.lateness().record(lateness);
 * RouseEvents.timerLate(owner.name(), this, lateness);
 * }</pre>
 *
 * <p>Nothing here throws: where {@code jdk.jfr} cannot be loaded (a framework that neither exports it from the
 * system bundle nor boot-delegates it; the import is optional) or JFR cannot start, every hook is a no-op.
 */
public final class RouseEvents {

    /*
     * Implementation notes.
     *
     * Sources. jdk.jfr.Event's Javadoc (shouldCommit, then set fields, then commit); the JDK's own guarded events in
     * java.base (e.g. jdk.internal.event.ThreadSleepEvent: "if (ThreadSleepEvent.isTurnedOn())" before any work).
     *
     * Layout. This class names no jdk.jfr type, in fields or signatures, so it links where jdk.jfr is missing; the
     * event types live in Jfr, a holder that is initialized only when the class-loading probe below succeeds.
     *
     * Costs. A disabled event costs the static final AVAILABLE test (folded by the JIT) and one read of the
     * event type's enabled flag (jdk.jfr.EventType.isEnabled). An enabled one also reads System.nanoTime() where
     * the caller passed a start time, and commits only over its threshold (NanosThreshold). LockContendedTiming in
     * benchmarks/ measures both against a path with no hook.
     */

    /** Whether jdk.jfr is visible to this bundle and JFR's metadata could be set up; fixed at class initialization. */
    private static final boolean AVAILABLE = probe();

    private RouseEvents() {}

    /** Whether the events can be recorded at all in this framework and JVM. */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * A timer handler is starting {@code latenessNanos} after its deadline.
     *
     * @param owner the owner's name
     * @param timer the timer (its {@code toString()} is recorded)
     */
    public static void timerLate(String owner, Object timer, long latenessNanos) {
        if (AVAILABLE && Jfr.timerLateEnabled()) {
            Jfr.timerLate(owner, timer, latenessNanos);
        }
    }

    /**
     * A thread now holds lock {@code name} through {@code primitive}, having waited since {@code startNanos}
     * ({@link System#nanoTime()}). Reads the clock only when the event is enabled.
     */
    public static void lockContended(String name, LockPrimitive primitive, long startNanos) {
        if (AVAILABLE && Jfr.lockContendedEnabled()) {
            Jfr.lockContended(name, primitive, startNanos);
        }
    }

    /**
     * An upcall for {@code channel} of {@code bundle} that began at {@code startNanos} ({@link System#nanoTime()})
     * has returned. Reads the clock only when the event is enabled.
     */
    public static void slowUpcall(String bundle, Object channel, long startNanos) {
        if (AVAILABLE && Jfr.slowUpcallEnabled()) {
            Jfr.slowUpcall(bundle, channel, startNanos);
        }
    }

    /**
     * A front's swap from engine {@code from} to {@code to} (names; {@code null} is recorded as {@code none}) took
     * {@code pauseNanos} and moved {@code moved} items. Always kept in {@link RecentSwaps} for the Web Console page.
     */
    public static void engineSwap(String service, String from, String to, long pauseNanos, long moved) {
        RecentSwaps.record(service, from, to, pauseNanos, moved);
        if (AVAILABLE && Jfr.engineSwapEnabled()) {
            Jfr.engineSwap(service, from, to, pauseNanos, moved);
        }
    }

    private static boolean probe() {
        try {
            Class.forName("jdk.jfr.Event", false, RouseEvents.class.getClassLoader());
            Class.forName(Jfr.class.getName(), true, RouseEvents.class.getClassLoader()); // registers the events
            return true;
        } catch (ClassNotFoundException | RuntimeException | Error e) {
            // jdk.jfr not wired (optional import) or JFR not supported by this JVM: events off for good
            return false;
        }
    }
}
