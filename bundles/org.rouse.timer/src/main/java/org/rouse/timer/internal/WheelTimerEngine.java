package org.rouse.timer.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.config.ConfigCheck;
import org.rouse.timer.spi.ClockedTask;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default timer engine: a {@link TimingWheel} and a fixed pool of worker threads that take turns waiting for the
 * next deadline (leader/follower). The worker that finds timers due fires them as one batch and runs their handlers
 * itself; another worker is woken only when queued handlers would otherwise wait behind a running one for longer than
 * {@code help.after.micros}.
 */
@Component(
        service = TimerEngine.class,
        configurationPid = WheelTimerEngine.PID,
        property = {TimerEngine.ENGINE_NAME + "=" + WheelTimerEngine.NAME})
@Designate(ocd = TimerEngineConfig.class)
public final class WheelTimerEngine implements TimerEngine {

    /*
     * Implementation notes.
     *
     * Sources. Schmidt et al., "Leader/Followers" (POSA 2): one thread waits for events, the others wait to lead;
     * ScheduledThreadPoolExecutor's DelayedWorkQueue (the `leader` field: the thread that waits for the head's delay,
     * a follower signalled when the leader takes a task); Jetty's AdaptiveExecutionStrategy (execute-produce-consume:
     * the thread that produced a task consumes it, another resumes producing); Linux hrtimers' soft and hard expiry
     * (timer slack: the clock is programmed for the earliest hard expiry, and every timer whose soft expiry passed
     * fires in that interrupt).
     *
     * Layout. One lock (`lock`) guards the wheel, `ready` (tasks waiting for a worker), `idle` (parked followers, most
     * recently parked first), `watchdog`, `replacedReturning`, `leader`, `parkedUntil`, `parkedForever`, `running`,
     * `taskNanosEstimate`, `shutDown`, the worker counts and each Worker's `inTask`/`taskStartNanos`. Each Worker has
     * its own `due` list and `produced` list, touched only by itself.
     *
     * Algorithm. A worker loops: under the lock, (1) if no one leads and the wheel has entries due, it advances the
     * wheel (once the earliest deadline plus the slack has passed) and becomes the producer (`leader`, so no one else
     * produces or waits meanwhile); (2) else it takes a task from `ready`; (3) else, if no one leads, it becomes the
     * leader and parks until the earliest deadline plus the slack; (4) else, if there is something to watch and no
     * watchdog, it parks as the watchdog with a timeout (see "Helping"); (5) else it parks as an idle follower. The
     * producer calls TimerEntry.expire() for the whole batch outside the lock (the front's handle takes its own
     * monitor); the front answers each with execute(ticket), which from the producing thread only appends to its
     * `produced` list: no lock, no unpark. Then it appends the batch to `ready` under the lock once and gives up
     * leading, and its next turn of the loop takes the first task: a firing costs no hand-off while a thread is
     * awake. Between two tasks the same loop looks at the wheel again, so the worker that runs a batch also fires
     * the next one when it falls due, and waits for the one after when nothing is left to run. Tasks from other
     * threads (the front's serial queues re-issuing a ticket, swaps) go to `ready` and wake an idle follower, or the
     * parked leader if no follower is idle; tasks and arms from the engine's own workers wake no one, since the
     * calling worker comes back to the loop.
     *
     * Helping (produce-consume, with execute-produce-consume when work would wait). Handing a task to a parked
     * follower costs a wake-up: on Linux about 10 µs of CPU between the unpark, the futex and the scheduler, and the
     * follower starts tens of microseconds later. A timer handler usually runs for a microsecond, so the worker that
     * found a batch due runs it alone, one task after another, as Jetty's produce-consume does for non-blocking
     * tasks; measured at 10,000 timers of 50 ms, this took a third of the engine's CPU off compared with one hand-off
     * per batch (docs/performance.md). Another worker is woken only when work would otherwise wait behind a handler
     * longer than `help.after.micros`: (a) as a worker takes a task and the tasks still queued would wait longer than
     * that behind it (their count times `taskNanosEstimate`), or another worker's task has run longer than that;
     * (b) the watchdog. `taskNanosEstimate` smooths the run time of recent tasks (each sample moves it an eighth of
     * the way), timed from a task's take to its return (for a ClockedTask, to the end reading it gives back: a timer
     * run's handler end, before its re-arm), and each sample is the shorter of a task's run and the run
     * before it: a single task stretched by preemption or a contended lock is ignored, two long ones in a row count.
     * Without that filter a worker descheduled for a few milliseconds on a busy machine made every batch look long,
     * and the helper it woke contended for the lock, which stretched the next tasks in turn. The watchdog is one
     * follower parked with a timeout instead of indefinitely while there is something to watch: for
     * `help.after.micros` while tasks run or a batch is being fired, and until the leader's wake-up plus
     * `help.after.micros` while the leader waits. When its park runs out (no one took it out to hand it work) it takes
     * work only if some is held up: no other worker is awake to come back for it (noOtherWorkerAwakeLocked), a
     * handler has run longer than `help.after.micros` or the queued tasks would wait longer than that
     * (overrunLocked; `helpJoins` and `helpHandoffs` count the joins this causes), or the leader is parked past its
     * time (then it takes over, below); otherwise it parks as the watchdog again. A leader whose batch a takeover
     * fired and a follower woken only to become the watchdog follow the same rule. Short handlers that keep one
     * worker busy hold nothing up: that worker fires the next batch between two tasks, and a second worker running
     * tasks beside it only contends for the lock, the queue and the front's shared counters (at 10,000 timers with
     * 1 ms of slack, a watchdog that joined whenever it found tasks queued took the engine's CPU from a third
     * to nearly half a core; docs/performance.md, "Timers: a watchdog that takes work only when work is held up"). So
     * a handler that blocks delays other owners' timers by at most about twice `help.after.micros` (plus a wake-up),
     * never indefinitely, and the watchdog wakes at most once per interval while timers fire and never while they
     * only wait (with the leader parked for an hour, it parks for an hour and a millisecond). A producer whose batch
     * leaves other work waiting (another task, or timers still armed) while no watchdog is parked wakes a follower to
     * become one; that happens only when the engine was idle before, not after a takeover (below).
     * `help.after.micros` = 0 restores handing over at once: the producer and every worker that takes a task while
     * others are ready wakes one more follower (a cascade, at most min(n, workers) - 1 unparks for n tasks), and one
     * more to lead while it runs a task and timers remain.
     *
     * Taking over. A worker that comes back to the loop (from a handler, or woken as a follower) while the leader is
     * parked and the wheel already holds an entry due (earliest deadline plus slack passed) fires that batch itself
     * instead of leaving it to the leader: it becomes the producer (`leader` = itself, `awake` set), and the parked
     * thread, on waking, finds it no longer leads (`parkedToLead` set, `leader` another) and, unless work is held up,
     * watches or idles (see "Helping"). Its park has already run out, so it is on its way back: until it is
     * (`replacedReturning` counts such threads), the producer wakes no follower to become the watchdog, which would
     * cost a second wake-up for the role the returning thread takes anyway (at 711 timers with 1 ms of slack a takeover
     * happened for about every fourth batch, and each woke a follower). This is what ScheduledThreadPoolExecutor does
     * (any thread entering take() polls a due head, leader or not), and it takes the parked leader's wake-up off the
     * path of a due timer: a timed park returns tens of microseconds late at best (Linux's default timer slack is
     * 50 µs) and, on a busy machine, only once the scheduler runs the thread again. The parked thread is never left
     * waiting into the future: a takeover requires the time the leader parked until (`parkedUntil`, never a park
     * without a timeout) to have passed, checked directly rather than inferred from the wheel, because a slack lowered
     * by configure is visible to workers before configure wakes the leader. Only a takeover that finds an entry due
     * marks the leader awake: the wheel's earliest-deadline bound can be stale after a disarm, and a leader wrongly
     * marked awake could not be signalled by a later arm. (A leader preempted between computing its wait and parking
     * may still park after a takeover, for up to its whole wait; it delays no timer, since the worker that took
     * over leads in its place.)
     *
     * Slack. The leader parks until (earliest deadline + d), d being the slack less how late such a park is expected to
     * end, the larger of the workers' kernel timer slack K (the kernel ends a park up to K late) and `wakeLateNanos`, a
     * high estimate of how late the leader's recent timed parks ended (on a busy 2-core machine most wake-ups ended
     * 50-100 µs late and a few per cent later, which put the earliest timers of those batches past a 1 ms slack;
     * docs/performance.md, "Timers: slack less the wake-up's own lateness"), but at least half the slack. A park is
     * measured from the deadline its turn computed to what a handler sees: to the first task its thread takes after
     * firing the batch (the batch's expiries and the lock come on top of the park's own lateness; measured to the
     * park's return, p99 stayed 4-40 µs over a 1 ms slack), or to its next turn if it fires none. When it wakes it
     * fires every entry whose deadline has passed. So deadlines within d of the earliest one fire in the same wake-up,
     * no timer fires before its deadline, the earliest of a batch usually fires within the slack of it, and wake-ups
     * are at least d (at least half the slack) apart: with their lateness, about one per slack. A worker that is awake
     * anyway waits for d too (it fires only once the earliest deadline plus d has passed), so under load the batches
     * stay a slack wide instead of shrinking to what fell due during one handler.
     *
     * Spinning. The leader parks until `spin.micros` before its deadline and spins (Thread.onSpinWait, until the
     * deadline its turn computed under the lock, with no clock read of its own, or until `awake` is set by an earlier
     * arm or a takeover) for the rest, so a wait no longer than that is spun through with no park at all. A park is a
     * poor way to wait a few microseconds: it costs a futex call, a timer interrupt and two context switches
     * (microseconds of CPU), and it ends up to the kernel's timer slack late plus the scheduling of the wake-up. With
     * many timers such short waits are the common case (at 10,000 timers of 50 ms a deadline falls due every 5 µs on
     * average). A spin of 10 µs took the median lateness there from ~1.2x to ~0.3x ScheduledThreadPoolExecutor's for
     * about a ninth of a core more CPU (docs/performance.md, "Timers: spinning through short waits"); but the leader
     * then hardly parks, and on quiet machines, where STPE needs 60-65 % of a core rather than 88 %, that spin alone
     * put the engine over STPE's CPU. The default is 5 µs: the median 0.6-0.8x STPE's, the CPU 0.79-0.94x
     * (docs/performance.md, "Timers: `spin.micros` 5 by default"). A longer wait still parks, and the park's own
     * overshoot then usually passes the deadline before any spin begins; an idle engine waits for far deadlines or
     * none, so it never spins.
     *
     * Invariants.
     * 1. At most one thread produces or leads at a time (`leader`), so entries expire in deadline order, one batch
     *    after the other, and the front's per-owner queues receive them in that order. A takeover replaces only a
     *    parked leader, never a producing one (a producer keeps `awake` set).
     * 2. While `leader` is null and the wheel is not empty, some worker is awake (it will look at the wheel when its
     *    task returns), and a watchdog is parked with a timeout (if a worker is left to be one); an arm from outside
     *    the engine that finds no leader wakes an idle follower. So timers never wait for a long handler for more than
     *    about twice `help.after.micros` while a worker is idle (with 0: not at all, an idle one was woken to lead).
     * 3. The parked leader is unparked only by an arm whose deadline (plus slack) is earlier than the time it parked
     *    until, or by a task while no follower is idle, and only while it is parked (`awake` false): at most one unpark
     *    per park. No wake-up is lost: LockSupport's permit covers an unpark that lands between the unlock and the
     *    park.
     * 4. A follower is in `idle` exactly while its `inIdle` flag is set; whoever takes it out (the unparker) clears it,
     *    and a follower that returns from park without being taken (a spurious wake-up) removes itself. The watchdog
     *    is never in `idle`; it is `watchdog` from when it decides to park until it or an unparker takes it out.
     * 6. `running` counts the workers with `inTask` set: a worker sets it as it takes a task and clears it on its next
     *    turn of the loop, where it also folds the task's run time (to its end reading) into `taskNanosEstimate`.
     * 5. execute() after shutdown is refused; tasks accepted before it still run (the workers end only once `ready` is
     *    empty), until the grace period ends and the rest is discarded (the front re-issues its owners' tickets on the
     *    next engine, so it never depends on them).
     *
     * Costs. arm, disarm and drain do O(1) work under the lock (O(log k) for the few entries of the current tick); the
     * entry is the wheel's node (its engine position and link, see WheelPosition), so arming allocates nothing, and a
     * re-arm stores no reference into the entry (its engine slot names this engine already): a reference stored into a
     * long-lived object costs a G1 card mark and its concurrent refinement, which at 10,000 periodic timers in the old
     * generation put the p99 lateness at 3x ScheduledThreadPoolExecutor's (docs/performance.md, "Timers in the old
     * generation"). A batch of due timers takes the lock twice, not once per timer; each task taken takes it once.
     * With short handlers a firing costs no unpark at all; the watchdog costs at most one wake-up per
     * `help.after.micros` while timers fire. Disarming never wakes anyone: at worst the leader wakes once at the
     * removed timer's deadline and finds nothing due. Every return from a park counts as a wake-up (`wakeups`; a wait
     * spun through is none), so idle cost is visible; with nothing due nothing wakes.
     */

    static final String PID = "org.rouse.timer.engine";
    static final String NAME = "wheel";
    static final int DEFAULT_WORKERS = 4;
    static final long DEFAULT_TICK_MICROS = 1000;
    /**
     * A wait for the next deadline up to this long is spun through instead of parked: a park that short ends late by
     * the kernel's timer slack plus the scheduling of the wake-up, and costs microseconds of CPU itself; see
     * "Spinning" in the notes for why 5 and not 10, its value until 2026-12-05.
     */
    public static final long DEFAULT_SPIN_MICROS = 5;

    public static final long DEFAULT_HELP_AFTER_MICROS = 1000;
    public static final long DEFAULT_KERNEL_SLACK_MICROS = 20;

    private static final Logger LOG = LoggerFactory.getLogger(WheelTimerEngine.class);

    /** Guards every field below that is not final, volatile or an adder. */
    private final Object lock = new Object();
    /** Replaced (under the lock) only when the tick changes. */
    private TimingWheel wheel;
    /** Set under the lock by shutdown; final. */
    private boolean shutDown;
    /** Tasks waiting for a worker, in arrival order; guarded by the lock. */
    private final ArrayDeque<Runnable> ready = new ArrayDeque<>();
    /** Parked followers, most recently parked first; guarded by the lock (see invariant 4). */
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();
    /** The worker producing a batch or parked until the next deadline, or null; guarded by the lock. */
    private Worker leader;
    /** Where the leader is parked until; written by it under the lock, read by arms under the lock. */
    private long parkedUntil;
    /** Whether the leader is parked with no deadline at all; as {@link #parkedUntil}. */
    private boolean parkedForever;
    /** False only while the leader is (about to be) parked; written under the lock, read by the spin loop. */
    private volatile boolean awake = true;
    /**
     * The follower parked with a timeout to look at the running handlers (see "Helping"), or null; guarded by the
     * lock. It is never in {@link #idle}.
     */
    private Worker watchdog;
    /**
     * Leaders replaced by a takeover whose park has not yet returned to the loop; guarded by the lock. Each comes back
     * able to watch, so a producer does not wake a follower to watch meanwhile (see "Taking over").
     */
    private int replacedReturning;
    /** Workers running a task now (between taking it and coming back to the loop); guarded by the lock. */
    private int running;
    /**
     * Smoothed run time of a task in ns (each sample, the shorter of a task's run and the run before it, moves it an
     * eighth of the way); guarded by the lock.
     */
    private long taskNanosEstimate;
    /** The run time of the task that returned last, in ns; guarded by the lock. */
    private long lastTaskNanos;
    /** Live workers and the configured count; guarded by the lock. */
    private int liveWorkers;

    private int targetWorkers;
    /** Every live worker (for shutdown); guarded by the lock. */
    private final List<Worker> workers = new ArrayList<>();
    /** Numbers the workers' names; guarded by the lock. */
    private int nextWorkerId;

    /** Returns from a park, of the leader or a follower; incremented by the worker. */
    private final LongAdder wakeups = new LongAdder();
    /** Unparks of the leader made by arms with an earlier deadline or by tasks. */
    private final LongAdder signals = new LongAdder();
    /** Unparks of idle followers (to run ready tasks or to take over waiting). */
    private final LongAdder handoffs = new LongAdder();
    /** Entries expired. */
    private final LongAdder expired = new LongAdder();
    /** Batches produced: rounds of the wheel that found at least one entry due. */
    private final LongAdder batches = new LongAdder();
    /** Batches fired by an awake worker while the leader was still parked past its deadline (see the notes). */
    private final LongAdder takeovers = new LongAdder();
    /** Returns of the watchdog from its timed park (see "Helping"). */
    private final LongAdder watchdogWakeups = new LongAdder();
    /** Workers back from a park that joined the running ones because work was held up; incremented by them. */
    private final LongAdder helpJoins = new LongAdder();
    /** Unparks of an idle worker to share queued work that was held up (a subset of the hand-offs); by the waker. */
    private final LongAdder helpHandoffs = new LongAdder();

    /** Nanoseconds to spin before a deadline; written by configure. */
    private volatile long spinNanos;
    /** The configured {@code slack.micros} in ns (see {@link #firingDelayLocked}); written by configure. */
    private volatile long slackNanos;
    /**
     * How late the workers' kernel timer slack may end a park (the kernel's default when the helper is unavailable);
     * written by configure.
     */
    private volatile long kernelLateNanos;
    /**
     * How late the leader's timed parks have ended, to the first task taken after them, a high estimate (see
     * {@link #nextWakeLate} and sampleLatenessLocked); guarded by the lock.
     */
    private long wakeLateNanos;
    /**
     * How long queued work may wait behind running handlers before another worker is woken to take it (0: at once);
     * written by configure, read under the lock.
     */
    private volatile long helpAfterNanos;
    /** The kernel timer slack each worker asks for (0: the thread's default); written by configure. */
    private volatile long kernelSlackNanos;

    /** The configuration in force; written by configure (DS serializes activate and modified). */
    private Settings settings;

    /** For DS. */
    public WheelTimerEngine() {}

    /** For tests and benchmarks: an engine started at once. */
    public static WheelTimerEngine started(int workerThreads, long spinMicros, long tickMicros) {
        return started(workerThreads, spinMicros, tickMicros, 0);
    }

    /**
     * For tests and benchmarks: an engine started at once, with a timer slack and the time after which a running
     * handler makes another worker take the due work ({@code help.after.micros}; 0 hands it over at once).
     */
    public static WheelTimerEngine started(
            int workerThreads, long spinMicros, long tickMicros, long slackMicros, long helpAfterMicros) {
        WheelTimerEngine engine = new WheelTimerEngine();
        engine.start(new Settings(workerThreads, spinMicros, tickMicros, slackMicros, helpAfterMicros));
        return engine;
    }

    /** For tests and benchmarks: as above, with the kernel timer slack each worker asks for (0: the kernel's). */
    public static WheelTimerEngine started(
            int workerThreads,
            long spinMicros,
            long tickMicros,
            long slackMicros,
            long helpAfterMicros,
            long kernelSlackMicros) {
        WheelTimerEngine engine = new WheelTimerEngine();
        engine.start(
                new Settings(workerThreads, spinMicros, tickMicros, slackMicros, helpAfterMicros, kernelSlackMicros));
        return engine;
    }

    /** For tests and benchmarks: an engine started at once, with a timer slack. */
    public static WheelTimerEngine started(int workerThreads, long spinMicros, long tickMicros, long slackMicros) {
        WheelTimerEngine engine = new WheelTimerEngine();
        engine.start(new Settings(workerThreads, spinMicros, tickMicros, slackMicros));
        return engine;
    }

    /** For tests and benchmarks: an engine with the default configuration but for its worker count. */
    public static WheelTimerEngine started(int workerThreads) {
        return started(workerThreads, DEFAULT_SPIN_MICROS, DEFAULT_TICK_MICROS);
    }

    /** A validated engine configuration. */
    record Settings(
            int workerThreads,
            long spinMicros,
            long tickMicros,
            long slackMicros,
            long helpAfterMicros,
            long kernelSlackMicros) {
        static final Settings DEFAULTS = new Settings(DEFAULT_WORKERS, DEFAULT_SPIN_MICROS, DEFAULT_TICK_MICROS, 0);

        /** With the default {@code help.after.micros} and {@code kernel.slack.micros}. */
        Settings(int workerThreads, long spinMicros, long tickMicros, long slackMicros) {
            this(workerThreads, spinMicros, tickMicros, slackMicros, DEFAULT_HELP_AFTER_MICROS);
        }

        /** With the default {@code kernel.slack.micros}. */
        Settings(int workerThreads, long spinMicros, long tickMicros, long slackMicros, long helpAfterMicros) {
            this(workerThreads, spinMicros, tickMicros, slackMicros, helpAfterMicros, DEFAULT_KERNEL_SLACK_MICROS);
        }

        static Settings from(TimerEngineConfig config, ConfigCheck check) {
            long threads = check.inRange("worker.threads", config.worker_threads(), 1, 1024);
            long spin = check.inRange("spin.micros", config.spin_micros(), 0, 1000);
            long tick = check.inRange("tick.micros", config.tick_micros(), 1, 1_000_000);
            long slack = check.inRange("slack.micros", config.slack_micros(), 0, 1_000_000);
            long help = check.inRange("help.after.micros", config.help_after_micros(), 0, 1_000_000);
            long kernelSlack = check.inRange("kernel.slack.micros", config.kernel_slack_micros(), 0, 1_000_000);
            return check.passed() ? new Settings((int) threads, spin, tick, slack, help, kernelSlack) : null;
        }

        /** The tick as a power of two: {@code 2^shift} ns is the largest not above {@code tickMicros}. */
        int tickShift() {
            return 63 - Long.numberOfLeadingZeros(tickMicros * 1_000);
        }
    }

    @Activate
    void activate(TimerEngineConfig config) {
        Settings next = validate(config);
        start(next == null ? Settings.DEFAULTS : next);
    }

    @Modified
    void modified(TimerEngineConfig config) {
        Settings next = validate(config);
        if (next != null) {
            apply(next);
        }
    }

    private static Settings validate(TimerEngineConfig config) {
        ConfigCheck check = new ConfigCheck(PID);
        Settings next = Settings.from(config, check);
        if (next == null) {
            LOG.error(check.rejection());
        }
        return next;
    }

    private void start(Settings first) {
        settings = first;
        spinNanos = TimeUnit.MICROSECONDS.toNanos(first.spinMicros());
        slackNanos = TimeUnit.MICROSECONDS.toNanos(first.slackMicros());
        kernelLateNanos = kernelLateNanos(first);
        helpAfterNanos = TimeUnit.MICROSECONDS.toNanos(first.helpAfterMicros());
        kernelSlackNanos = TimeUnit.MICROSECONDS.toNanos(first.kernelSlackMicros());
        synchronized (lock) {
            wheel = new TimingWheel(System.nanoTime(), first.tickShift());
            targetWorkers = first.workerThreads();
            while (liveWorkers < targetWorkers) {
                startWorkerLocked();
            }
        }
        LOG.info("Timer engine {} started: {}", NAME, first);
        if (!KernelTimerSlack.available()) {
            LOG.info(
                    "Timer engine {}: kernel.slack.micros not applied ({}); workers keep the kernel's timer slack",
                    NAME,
                    KernelTimerSlack.unavailableReason());
        }
    }

    /**
     * How long after the earliest deadline the engine fires (0 without slack): {@code slack.micros} less how late a
     * park until then is expected to end, the larger of the kernel's timer slack and the leader's measured wake-up
     * lateness, but at least half the slack. So the earliest timer of a batch usually fires within
     * {@code slack.micros} of its deadline, wake-ups stay at least half the slack apart, and none fires early. With
     * the helper unavailable on Linux, the kernel's default of 50 µs is assumed; elsewhere none.
     */
    private long firingDelayLocked() {
        return firingDelay(slackNanos, kernelLateNanos, wakeLateNanos);
    }

    /** See {@link #firingDelayLocked}: the delay for a slack, the kernel's timer slack and the measured lateness. */
    static long firingDelay(long slackNanos, long kernelLateNanos, long wakeLateNanos) {
        return slackNanos == 0 ? 0 : Math.max(slackNanos >> 1, slackNanos - Math.max(kernelLateNanos, wakeLateNanos));
    }

    /**
     * The next high estimate of how late the leader's parks end, after one that ended {@code lateNanos} late: a
     * quarter of the way up towards a later one, a hundred-and-twenty-eighth of the way down towards an earlier one:
     * it settles where the rises, weighted thirty-two times the falls, balance them, near a high quantile of the recent
     * wake-ups, and one very late wake-up moves it only a quarter of the way. In alternating runs with falls of a
     * thirty-second a 1 ms slack's p99 lateness had a median of 0.999 ms and went over 1 ms in 9 rounds of 24; with a
     * hundred-and-twenty-eighth, medians of 0.973-0.977 ms and 3 rounds of 24 over, for more CPU per event (medians 5 %
     * more at 10,000 timers, 18 % at 711, in noisy rounds; docs/performance.md, "Timers: a slack that holds at p99").
     */
    static long nextWakeLate(long estimateNanos, long lateNanos) {
        return lateNanos > estimateNanos
                ? estimateNanos + ((lateNanos - estimateNanos) >> 2)
                : estimateNanos - ((estimateNanos - lateNanos) >> 7);
    }

    private static long kernelLateNanos(Settings settings) {
        return KernelTimerSlack.effectiveNanos(TimeUnit.MICROSECONDS.toNanos(settings.kernelSlackMicros()));
    }

    private void startWorkerLocked() {
        Worker worker = new Worker(nextWorkerId++);
        workers.add(worker);
        liveWorkers++;
        worker.start();
    }

    /** Applies a new configuration in place: pool size, spin, slack, and (by re-placing every entry) the tick. */
    private void apply(Settings next) {
        spinNanos = TimeUnit.MICROSECONDS.toNanos(next.spinMicros());
        slackNanos = TimeUnit.MICROSECONDS.toNanos(next.slackMicros());
        kernelLateNanos = kernelLateNanos(next);
        helpAfterNanos = TimeUnit.MICROSECONDS.toNanos(next.helpAfterMicros());
        kernelSlackNanos = TimeUnit.MICROSECONDS.toNanos(next.kernelSlackMicros()); // each worker applies it itself
        List<Worker> wake = new ArrayList<>();
        synchronized (lock) {
            targetWorkers = next.workerThreads();
            while (liveWorkers < targetWorkers) {
                startWorkerLocked();
            }
            if (liveWorkers > targetWorkers) {
                while (hasIdleLocked()) {
                    wake.add(takeIdleLocked()); // the surplus ends; the rest park again
                }
            } else if (watchdog != null) {
                wake.add(takeIdleLocked()); // a new help.after.micros: the watchdog computes its wait again
            }
            if (next.tickShift() != settings.tickShift()) {
                TimingWheel rebuilt = new TimingWheel(System.nanoTime(), next.tickShift());
                wheel.removeAll(rebuilt::add);
                wheel = rebuilt;
            }
            if (leader != null && !awake) {
                awake = true; // a new tick or slack: the leader computes its wait again
                wake.add(leader);
            }
        }
        wake.forEach(LockSupport::unpark);
        settings = next;
        LOG.info("Timer engine {} reconfigured: {}", NAME, next);
    }

    @Deactivate
    void deactivate() {
        shutdown();
    }

    /**
     * Drains (if the front has not) and stops the workers, letting tasks already accepted run for up to
     * {@link NamedThreads#SHUTDOWN_GRACE} before interrupting the running ones and discarding the rest.
     */
    public void shutdown() {
        shutdown(NamedThreads.SHUTDOWN_GRACE);
    }

    /** As {@link #shutdown()}, with {@code grace} for running handlers (tests use a short one). */
    void shutdown(java.time.Duration grace) {
        List<Worker> all;
        synchronized (lock) {
            if (shutDown) {
                return;
            }
            shutDown = true;
            wheel.removeAll(node -> node.engineSlot(null));
            awake = true;
            all = new ArrayList<>(workers);
        }
        all.forEach(LockSupport::unpark);
        if (Thread.currentThread() instanceof Worker self && self.engine() == this) {
            return; // called from a handler: the workers end as their tasks run out; do not wait for ourselves
        }
        long deadline = System.nanoTime() + grace.toNanos();
        boolean interrupted = false;
        synchronized (lock) {
            while (liveWorkers > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
            if (liveWorkers > 0) {
                LOG.warn("Timer handlers still running {} ms after shutdown; interrupting them", grace.toMillis());
                ready.clear();
                workers.forEach(Thread::interrupt);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean arm(TimerEntry entry) {
        Worker wake = null;
        synchronized (lock) {
            if (shutDown) {
                return false;
            }
            boolean ours = entry.engineSlot() == this; // a re-armed periodic timer is: no store, no G1 card mark
            if (ours && wheel.holds(entry)) {
                return true; // armed here already (the front never does this; the contract allows nothing else)
            }
            if (!ours) {
                entry.engineSlot(this); // the entry is the wheel's node: its position and link are set by the wheel
            }
            wheel.add(entry);
            if (leader == null) {
                if (hasIdleLocked() && !fromOwnWorkerLocked()) {
                    wake = takeIdleLocked(); // every awake worker is in a task: an idle one waits for the deadline
                }
            } else if (!awake && (parkedForever || entry.deadlineNanos() + firingDelayLocked() - parkedUntil < 0)) {
                awake = true;
                wake = leader;
            }
        }
        if (wake != null) {
            signals.increment();
            LockSupport.unpark(wake);
        }
        return true;
    }

    @Override
    public boolean disarm(TimerEntry entry) {
        synchronized (lock) {
            if (entry.engineSlot() == this && wheel.holds(entry)) {
                wheel.remove(entry);
                entry.engineSlot(null);
                return true;
            }
            return false;
        }
    }

    /**
     * Runs {@code task} on a worker. Called by the worker that is firing a batch, it only joins the batch (the worker
     * runs it or wakes a follower once the batch is complete); from any other thread it wakes an idle worker, or the
     * leader if none is idle.
     */
    @Override
    public void execute(Runnable task) {
        if (Thread.currentThread() instanceof Worker self && self.engine() == this && self.producing) {
            self.produced.add(task);
            return;
        }
        Worker wake = null;
        synchronized (lock) {
            if (shutDown) {
                throw new RejectedExecutionException("timer engine " + NAME + " has shut down");
            }
            ready.add(task);
            if (fromOwnWorkerLocked()) {
                // the calling worker comes back to the loop and takes it; if its handler runs on, the watchdog does
                wake = null;
            } else if (hasIdleLocked()) {
                wake = takeIdleLocked();
            } else if (leader != null && !awake) {
                awake = true;
                wake = leader;
            }
        }
        if (wake != null) {
            handoffs.increment();
            LockSupport.unpark(wake);
        }
    }

    @Override
    public List<TimerEntry> drain() {
        List<TimerEntry> pending = new ArrayList<>();
        synchronized (lock) {
            wheel.removeAll(node -> {
                node.engineSlot(null);
                pending.add(node);
            });
        }
        return pending;
    }

    @Override
    public long dispatcherWakeups() {
        return wakeups.sum();
    }

    /** Early wake-ups of the leader caused by arming an earlier deadline (a subset of the wake-ups). */
    public long signals() {
        return signals.sum();
    }

    /** Unparks of idle workers to run tasks or take over the waiting. */
    public long handoffs() {
        return handoffs.sum();
    }

    /** Entries expired so far. */
    public long expired() {
        return expired.sum();
    }

    /** Batches fired by an awake worker in place of a leader still parked past the time it parked until. */
    public long takeovers() {
        return takeovers.sum();
    }

    /** Returns of the watchdog from its timed park, to look at handlers running past {@code help.after.micros}. */
    public long watchdogWakeups() {
        return watchdogWakeups.sum();
    }

    /**
     * Times a worker joined the running ones because work was held up: woken by a worker whose queued tasks would wait
     * longer than {@code help.after.micros} or that found a handler running longer than that, or back from a park
     * (the watchdog's timeout, a takeover, a wake-up to watch) to find work held up. Short handlers that keep one
     * worker busy make none; a handler that blocks, or a worker descheduled in one, does.
     */
    public long helps() {
        return helpJoins.sum() + helpHandoffs.sum();
    }

    /** The helps that cost a hand-off: unparks of an idle worker to share queued work that was held up. */
    public long helpHandoffs() {
        return helpHandoffs.sum();
    }

    /** Batches fired so far: rounds of the wheel that found at least one entry due. */
    public long batches() {
        return batches.sum();
    }

    @Override
    public int armedCount() {
        synchronized (lock) {
            return wheel.size();
        }
    }

    /** Whether a parked follower (idle, or the watchdog) can be woken. */
    private boolean hasIdleLocked() {
        return !idle.isEmpty() || watchdog != null;
    }

    /** Takes a parked follower to wake: the most recently idle one, else the watchdog; null if there is none. */
    private Worker takeIdleLocked() {
        Worker worker = idle.poll();
        if (worker != null) {
            worker.inIdle = false;
            return worker;
        }
        worker = watchdog;
        watchdog = null;
        return worker;
    }

    /**
     * Whether the calling thread is one of this engine's workers running a task (and so comes back to the loop, where
     * it sees what it just armed or queued) while hand-offs are deferred ({@code help.after.micros} above 0).
     */
    private boolean fromOwnWorkerLocked() {
        return helpAfterNanos > 0 && Thread.currentThread() instanceof Worker self && self.engine() == this;
    }

    private static final int PRODUCE = 0;
    private static final int RUN = 1;
    private static final int LEAD = 2;
    private static final int FOLLOW = 3;
    private static final int WATCH = 4;

    /** A worker's loop: produce a batch, run a task, lead, watch or follow (see the notes). */
    private void work(Worker me) {
        // The loop body is a method of its own: a loop that never returns runs compiled only through on-stack
        // replacement, and each deoptimization of that code (an unstable_if trap at a branch first taken) left the
        // worker interpreted until the loop was compiled again: 12 % of a busy engine's CPU (docs/performance.md,
        // "Timers: a reached tick fired from a sorted run"). A method called per turn is compiled again at its next
        // call.
        while (turn(me)) {
            // the next turn
        }
    }

    /** One turn of a worker's loop (see the notes); false once the worker has retired. */
    private boolean turn(Worker me) {
        long kernelSlack = kernelSlackNanos;
        if (kernelSlack != me.kernelSlackNanos) { // at start and after a reconfiguration: only for itself
            me.kernelSlackNanos = kernelSlack;
            KernelTimerSlack.setForCurrentThread(kernelSlack);
        }
        Runnable task = null;
        Worker wake = null;
        int step;
        boolean forever = false;
        long waitNanos = 0;
        long untilNanos = 0;
        long taskStartNanos = 0;
        synchronized (lock) {
            long now = System.nanoTime();
            if (me.inTask) {
                me.inTask = false;
                running--;
                long took = me.taskEndNanos - me.taskStartNanos;
                taskNanosEstimate += (Math.min(took, lastTaskNanos) - taskNanosEstimate) >> 3;
                lastTaskNanos = took;
            }
            boolean replaced = me.parkedToLead && leader != me; // a takeover fired its batch (see "Taking over")
            me.parkedToLead = false;
            if (replaced) {
                replacedReturning--;
            }
            if (leader == me) {
                leader = null;
                awake = true;
            }
            boolean watchTimedOut = watchdog == me; // no one took it out: its timed park ran out
            if (watchTimedOut) {
                watchdog = null;
                watchdogWakeups.increment();
            }
            if (me.inIdle) { // a spurious return from park
                idle.remove(me);
                me.inIdle = false;
            }
            if (shutDown ? ready.isEmpty() : liveWorkers > targetWorkers) {
                retireLocked(me);
                return false;
            }
            boolean toWatch = me.watchOnWake;
            me.watchOnWake = false;
            boolean leaderOverdue = leader != null && !awake && !parkedForever && parkedUntil - now <= 0;
            // Back from a park that no one ended to hand it work (a watchdog's timeout, a leader whose batch a
            // takeover fired) or woken only to watch: it takes work only if some is held up (see "Helping").
            boolean backToLook = (watchTimedOut || replaced || toWatch) && !leaderOverdue;
            boolean overrun = backToLook && overrunLocked(me, now);
            boolean standAside = backToLook && !overrun && !noOtherWorkerAwakeLocked();
            if (!standAside
                    && (leader == null || leaderOverdue)
                    && !shutDown
                    && !wheel.isEmpty()
                    && wheel.nextWakeNanos() + firingDelayLocked() - now <= 0) {
                // No one leads, or the leader is parked until a time that has passed (see "Taking over"): this
                // awake worker fires now instead of waiting for the leader's wake-up.
                wheel.advance(now, me.due);
                if (leader != null && !me.due.isEmpty()) {
                    awake = true;
                    replacedReturning++;
                    takeovers.increment();
                }
            }
            if (standAside) {
                step = FOLLOW; // watches on or idles, below
            } else if (!me.due.isEmpty()) {
                leader = me;
                step = PRODUCE;
            } else if ((task = ready.poll()) != null) {
                step = RUN;
                me.inTask = true;
                me.taskStartNanos = taskStartNanos = now;
                running++;
                wake = helperLocked(me, now);
            } else if (leader == null) {
                leader = me;
                forever = wheel.isEmpty();
                waitNanos = forever ? 0 : Math.max(1, wheel.nextWakeNanos() + firingDelayLocked() - now);
                parkedForever = forever;
                parkedUntil = untilNanos = now + waitNanos;
                awake = false;
                me.parkedToLead = true;
                step = LEAD;
            } else {
                step = FOLLOW;
            }
            if (overrun && (step == PRODUCE || step == RUN)) {
                helpJoins.increment(); // back from a park, it joins the running ones because work is held up
            }
            if (me.lateness != Lateness.NONE) {
                sampleLatenessLocked(me, step, now);
            }
            if (step == FOLLOW) {
                if (watchdog == null && helpAfterNanos > 0 && (waitNanos = watchWaitLocked(now)) > 0) {
                    watchdog = me;
                    step = WATCH;
                } else {
                    idle.push(me);
                    me.inIdle = true;
                }
            }
        }
        switch (step) {
            case PRODUCE -> produce(me);
            case RUN -> {
                if (wake != null) {
                    handoffs.increment();
                    LockSupport.unpark(wake);
                    taskStartNanos = System.nanoTime(); // an unpark is a system call: the reading above is stale
                }
                // not the next turn's reading for the end: that one comes after the lock's wait
                // never before the start: an end reading from a task (SPI) must not turn the estimate negative
                me.taskEndNanos = Math.max(runTask(task, taskStartNanos), taskStartNanos);
            }
            case LEAD -> {
                boolean parked = true;
                if (forever) {
                    LockSupport.park(this);
                } else {
                    parked = waitFor(waitNanos, untilNanos);
                    if (slackNanos > 0) { // only the slack uses how late the wake-up was
                        me.leadUntilNanos = untilNanos;
                        me.lateness = Lateness.BACK_FROM_PARK;
                    }
                }
                Thread.interrupted(); // a stray interrupt would make every later park return at once
                if (parked) {
                    wakeups.increment();
                }
            }
            case WATCH -> {
                LockSupport.parkNanos(this, waitNanos);
                Thread.interrupted();
                wakeups.increment();
            }
            default -> {
                LockSupport.park(this);
                Thread.interrupted();
                wakeups.increment();
            }
        }
        return true;
    }

    /**
     * Folds how late {@code me}'s last timed park as the leader ended into {@link #wakeLateNanos}, measured to what a
     * handler sees: to the first task {@code me} takes after firing the batch it woke for, or, if it fires none, to
     * this turn; a sample that is negative (a signal ended the wait early) is not counted (see "Slack").
     */
    private void sampleLatenessLocked(Worker me, int step, long now) {
        if (me.lateness == Lateness.BACK_FROM_PARK && step == PRODUCE) {
            me.lateness = Lateness.FIRED; // its first task is taken on its next turn, after the batch's expiries
            return;
        }
        if (me.lateness == Lateness.BACK_FROM_PARK || step == RUN) {
            long late = now - me.leadUntilNanos;
            if (late >= 0) {
                wakeLateNanos = nextWakeLate(wakeLateNanos, late);
            }
        }
        me.lateness = Lateness.NONE;
    }

    /**
     * Called by {@code me} as it takes a task, with {@code ready} holding what is still queued: the follower to wake
     * so that another worker shares the queued work, or null when {@code me} can run it alone (see "Helping").
     */
    private Worker helperLocked(Worker me, long now) {
        if (!hasIdleLocked()) {
            return null;
        }
        if (helpAfterNanos == 0) { // hand everything over at once: one more worker per queued task, and one to lead
            return !ready.isEmpty() || (leader == null && !wheel.isEmpty()) ? takeIdleLocked() : null;
        }
        if (ready.isEmpty() || !overrunLocked(me, now)) {
            return null;
        }
        helpHandoffs.increment();
        return takeIdleLocked();
    }

    /**
     * Whether the queued tasks would wait longer than {@code help.after.micros} behind the running ones (their count
     * times {@code taskNanosEstimate}), or a worker other than {@code me} has been in one task longer than that.
     */
    private boolean overrunLocked(Worker me, long now) {
        long helpAfter = helpAfterNanos;
        if ((long) ready.size() * taskNanosEstimate > helpAfter) {
            return true;
        }
        if (running > (me.inTask ? 1 : 0)) {
            for (int i = 0, n = workers.size(); i < n; i++) {
                Worker other = workers.get(i);
                if (other != me && other.inTask && now - other.taskStartNanos > helpAfter) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether no worker but the caller is awake to come back to the loop for queued tasks and due timers. */
    private boolean noOtherWorkerAwakeLocked() {
        int parked = idle.size() + (watchdog != null ? 1 : 0) + (leader != null && !awake ? 1 : 0);
        return liveWorkers - 1 - parked <= 0;
    }

    /**
     * How long a worker that would otherwise idle parks as the watchdog, or 0 when there is nothing to watch (then it
     * idles without a timeout): until {@code help.after.micros} after now while handlers run or a batch is fired,
     * and after the leader's own wake-up while it waits, so the watchdog wakes at most once per
     * {@code help.after.micros} while timers fire and never while they only wait.
     */
    private long watchWaitLocked(long now) {
        long helpAfter = helpAfterNanos;
        if (running > 0 || !ready.isEmpty() || (leader != null && awake)) {
            return helpAfter;
        }
        if (leader != null && !parkedForever) {
            return Math.max(0, parkedUntil - now) + helpAfter;
        }
        return 0;
    }

    /** Fires {@code me.due} as one batch and publishes the tasks it produced (see the notes). */
    private void produce(Worker me) {
        List<TimerEntry> due = me.due;
        // counted before the expiries, so whoever sees an entry expire also sees its batch counted
        expired.add(due.size());
        batches.increment();
        me.producing = true;
        try {
            for (TimerEntry entry : due) {
                try {
                    entry.expire();
                } catch (RuntimeException | LinkageError e) {
                    LOG.error("Timer entry {} failed to expire", entry, e); // the SPI says never; keep the worker
                }
            }
        } finally {
            me.producing = false;
        }
        due.clear();
        Worker wake = null;
        synchronized (lock) {
            leader = null;
            List<Runnable> produced = me.produced;
            for (int i = 0, n = produced.size(); i < n; i++) {
                ready.addLast(produced.get(i)); // indexed: ArrayDeque.addAll would allocate a method reference
            }
            int readyCount = ready.size();
            if (helpAfterNanos == 0 && !idle.isEmpty() && (readyCount > 1 || (readyCount == 1 && !wheel.isEmpty()))) {
                wake = takeIdleLocked();
            } else if (helpAfterNanos > 0
                    && watchdog == null
                    && replacedReturning == 0
                    && !idle.isEmpty()
                    && (readyCount > 1 || (readyCount == 1 && !wheel.isEmpty()))) {
                // other work waits besides the first handler and no watchdog is parked or on its way back (the engine
                // was idle): a follower becomes it, so a handler that blocks cannot hold that work up
                wake = takeIdleLocked();
                wake.watchOnWake = true;
            }
        }
        me.produced.clear();
        if (wake != null) {
            handoffs.increment();
            LockSupport.unpark(wake);
        }
    }

    /**
     * Runs {@code task}, taken at {@code startNanos}; returns the clock reading at its end. A {@link ClockedTask} is
     * handed the start reading and gives back its end, so a timer event reads the clock once here, not three times.
     */
    private static long runTask(Runnable task, long startNanos) {
        long endNanos = 0;
        boolean clocked = false;
        try {
            if (task instanceof ClockedTask clockedTask) {
                endNanos = clockedTask.run(startNanos);
                clocked = true;
            } else {
                task.run();
            }
        } catch (Throwable e) { // the front's tasks contain their handlers' failures; this keeps the worker alive
            LOG.error("Timer task {} failed", task, e);
        }
        Thread.interrupted(); // an interrupt meant for the task must not end the next park early
        return clocked ? endNanos : System.nanoTime();
    }

    private void retireLocked(Worker me) {
        liveWorkers--;
        workers.remove(me);
        if (leader == null && !shutDown && !wheel.isEmpty() && hasIdleLocked()) {
            LockSupport.unpark(takeIdleLocked()); // someone must wait for the remaining timers
        }
        lock.notifyAll();
    }

    /**
     * The leader's wait for its deadline {@code untilNanos}, {@code waitNanos} after the turn's clock read: parked
     * until {@code spin.micros} before it, then spun (see "Spinning"). Returns whether it parked; a wait no longer
     * than the spin does not.
     */
    private boolean waitFor(long waitNanos, long untilNanos) {
        long spin = spinNanos;
        if (spin == 0) {
            LockSupport.parkNanos(this, waitNanos);
            return true;
        }
        boolean parked = waitNanos > spin;
        if (parked) {
            LockSupport.parkNanos(this, waitNanos - spin);
        }
        while (!awake && System.nanoTime() - untilNanos < 0) {
            Thread.onSpinWait();
        }
        return parked;
    }

    /** The high estimate of how late a handler starts after the leader's timed park ends (see "Slack"). */
    long wakeLateNanos() {
        synchronized (lock) {
            return wakeLateNanos;
        }
    }

    /** Whether the leader has decided to park (and has not been signalled since). */
    boolean dispatcherParked() {
        return !awake;
    }

    /**
     * Every worker is parked with no wake-up owed to it: the leader with nothing armed and not signalled, every other
     * worker in the idle stack. A thread replaced by a takeover is in neither until its own park returns, so this
     * stays false while that wake-up is still to come.
     */
    boolean quiescent() {
        synchronized (lock) {
            return !awake && parkedForever && leader != null && idle.size() == liveWorkers - 1;
        }
    }

    /** The configuration in force. */
    Settings settings() {
        return settings;
    }

    @Override
    public String toString() {
        return "WheelTimerEngine[" + settings + "]";
    }

    /** Where a worker is in measuring how late its timed park as the leader ended (see sampleLatenessLocked). */
    private enum Lateness {
        NONE,
        BACK_FROM_PARK,
        FIRED
    }

    /** One of the engine's threads; {@link #due}, {@link #produced} and {@link #producing} are its own. */
    private final class Worker extends Thread {
        /** Entries of the batch being fired; only this thread. */
        final List<TimerEntry> due = new ArrayList<>();
        /** Tasks the batch produced; only this thread. */
        final List<Runnable> produced = new ArrayList<>();
        /** Whether this thread is firing a batch; only this thread. */
        boolean producing;
        /** Whether this worker is in {@link #idle}; guarded by the engine's lock. */
        boolean inIdle;
        /** Whether this worker is running a task it took from {@code ready}; guarded by the engine's lock. */
        boolean inTask;
        /** When it took that task ({@code System.nanoTime()}); guarded by the engine's lock. */
        long taskStartNanos;
        /**
         * When that task returned, or a {@link ClockedTask}'s end reading ({@code System.nanoTime()}, never before
         * {@link #taskStartNanos}); only this thread, read by it under the lock.
         */
        long taskEndNanos;
        /** Whether it last parked as the leader; guarded by the engine's lock. */
        boolean parkedToLead;
        /** Where its last timed park as the leader was to end; only this thread. */
        long leadUntilNanos;
        /** Whether that park's lateness is still to be sampled, and at which step; only this thread. */
        Lateness lateness = Lateness.NONE;
        /** Whether it was woken to become the watchdog rather than to take tasks; guarded by the engine's lock. */
        boolean watchOnWake;
        /** The kernel timer slack this thread last asked for (-1: none yet); only this thread. */
        long kernelSlackNanos = -1;

        Worker(int id) {
            super("rouse-timer-worker-" + id);
            setDaemon(true);
        }

        WheelTimerEngine engine() {
            return WheelTimerEngine.this;
        }

        @Override
        public void run() {
            work(this);
        }
    }
}
