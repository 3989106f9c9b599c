/**
 * The Rouse timer dispatcher: timers that fire at a deadline on the monotonic clock, with no polling.
 *
 * <p>A consumer binds to {@link org.rouse.timer.TimerService} (each bundle gets its own view), takes a
 * {@link org.rouse.timer.TimerOwner} per independent actor (a script, a session, a connection) and schedules
 * {@link org.rouse.timer.Timer}s on it:
 *
 * <pre>{@code
 * @Component
 * public class ScriptHost {
 *     @Reference
 *     private TimerService timers;
 *
 *     void start(Script script) {
 *         TimerOwner owner = timers.owner(script.name());
 *         owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(50), event -> script.timer());
 *     }
 * }
 * }</pre>
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Threads.</b> Every method of every type here may be called from any thread. Handlers never run on the
 *       dispatcher thread: they run on the provider's worker pool.
 *   <li><b>Ordering.</b> One owner's handlers never run concurrently and run in the order their timers fell due.
 *       Different owners run in parallel. A periodic timer never overlaps itself and has at most one event
 *       pending: firings missed while its handler was slow are coalesced into the next event
 *       ({@link org.rouse.timer.TimerEvent#missedFirings()}).
 *   <li><b>Clock.</b> Deadlines live on {@link System#nanoTime()}. An {@link java.time.Instant} is converted once,
 *       when the timer is scheduled; an instant in the past fires at once.
 *   <li><b>Bad input.</b> A {@code null} argument throws {@link java.lang.NullPointerException} naming it; a
 *       negative or overflowing duration throws {@link java.lang.IllegalArgumentException} naming it. A period
 *       shorter than the configured minimum interval is clamped to it, observably
 *       ({@link org.rouse.timer.Timer#period()}, {@link org.rouse.timer.TimerStatistics#clamped()}).
 *   <li><b>Faults.</b> A handler that throws anything, {@link java.lang.Error}s included, is logged with its
 *       owner and timer and counted; the failure ends that event only, the timer goes on (a periodic one keeps its
 *       schedule) and the owner's later events run. A handler that blocks holds up only its own owner.
 *   <li><b>Limits.</b> Each consuming bundle may have a bounded number of pending timers; beyond it
 *       {@code schedule} throws {@link java.util.concurrent.RejectedExecutionException} naming the cap.
 *   <li><b>Isolation and clean-up.</b> Owners live in the consuming bundle's view: no bundle can see or cancel
 *       another's timers. When the consuming bundle stops (or releases the service) all its timers are
 *       cancelled. Once {@link org.rouse.timer.TimerOwner#close()} (or the release) has returned, no handler of
 *       that owner starts.
 *   <li><b>Hot swap.</b> When the timer engine is updated, replaced or reconfigured, pending timers move to the
 *       new engine: every one-shot fires exactly once (late by at most the swap pause if it fell due during the
 *       swap), periodic timers keep their phase, and handles keep working.
 * </ul>
 *
 * <p>Engines implement {@link org.rouse.timer.spi.TimerEngine}; consumers never see them.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.rouse.timer;
