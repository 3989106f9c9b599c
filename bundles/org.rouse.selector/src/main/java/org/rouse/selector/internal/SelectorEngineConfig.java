package org.rouse.selector.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The machinery of the NIO selector engine: its worker pool and its select loop. */
@ObjectClassDefinition(
        id = NioSelectorEngine.PID,
        name = "Rouse NIO selector engine",
        description = "Worker pool and select loop of the NIO selector engine. A change re-creates the engine;"
                + " the selector front moves every channel to the new one without closing it.")
@interface SelectorEngineConfig {

    @AttributeDefinition(
            name = "Core worker threads",
            description = "Worker threads kept even when idle. 0 to 1024.",
            min = "0",
            max = "1024")
    int pool_core_threads() default EngineSettings.DEFAULT_CORE_THREADS;

    @AttributeDefinition(
            name = "Maximum worker threads",
            description = "The most worker threads: the pool grows to it for overlapping upcalls of recently active"
                    + " channels and for upcalls that wait past the grace (pool.grow.after.micros). 1 to 1024, at"
                    + " least the core threads.",
            min = "1",
            max = "1024")
    int pool_max_threads() default EngineSettings.DEFAULT_MAX_THREADS;

    @AttributeDefinition(
            name = "Idle timeout (s)",
            description = "How long a worker above the core size may stay idle before it ends; also the window in"
                    + " which a channel counts as recently active for the pool's growth. 1 to 86400.",
            min = "1",
            max = "86400")
    long pool_idle_timeout_seconds() default EngineSettings.DEFAULT_IDLE_TIMEOUT_SECONDS;

    @AttributeDefinition(
            name = "Grow after (µs)",
            description = "With no idle worker and at least one worker per recently active channel (a channel with"
                    + " an upcall within the idle timeout), an upcall waits this long for a busy worker to finish"
                    + " before the pool starts a thread for it (at most one thread per this period, up to the"
                    + " maximum). With fewer workers than that, the pool starts a thread at once and, in the"
                    + " background, the rest of one per recently active channel, so a steady set of connections"
                    + " keeps a worker each and later bursts of the same connections start none. A handler that"
                    + " blocks holds up the others for at most about this long per thread added. 0 starts a thread"
                    + " at once for every upcall that finds no idle worker (and none in advance). 0 to 1000000.",
            min = "0",
            max = "1000000")
    long pool_grow_after_micros() default EngineSettings.DEFAULT_GROW_AFTER_MICROS;

    @AttributeDefinition(
            name = "Queue capacity",
            description = "Upcalls that may wait for a worker once all maximum threads are busy. 1 to 1,000,000.",
            min = "1",
            max = "1000000")
    int pool_queue_capacity() default EngineSettings.DEFAULT_QUEUE_CAPACITY;

    @AttributeDefinition(
            name = "Most recently idle worker first",
            description = "Hand an upcall to the worker that became idle last (its stack and caches are warm, and"
                    + " workers beyond the steady need stay idle long enough to retire). Off: the longest idle"
                    + " worker first, as a ThreadPoolExecutor does.")
    boolean pool_most_recently_idle_first() default EngineSettings.DEFAULT_MOST_RECENTLY_IDLE_FIRST;

    @AttributeDefinition(
            name = "Select loops",
            description = "Select loop threads; each new channel goes to the loop with the fewest channels. 1 to 64.",
            min = "1",
            max = "64")
    int loops() default EngineSettings.DEFAULT_LOOPS;

    @AttributeDefinition(
            name = "Select timeout (ms)",
            description = "A safety net only: the longest the loop blocks in select. 0 blocks until a channel is"
                    + " ready or the loop is woken, which is all correctness needs. 0 to 600000.",
            min = "0",
            max = "600000")
    long select_timeout_ms() default EngineSettings.DEFAULT_SELECT_TIMEOUT_MS;

    @AttributeDefinition(
            name = "Watch period after an upcall (µs)",
            description =
                    "omniORB's connectionWatchPeriod: after an upcall the worker keeps watching its channel for"
                            + " up to this long and, if it becomes ready, runs the next upcall itself instead of handing the"
                            + " channel back to the loop (saves two thread hand-offs per call in a sequence of calls, costs a"
                            + " busy worker while it watches). Skipped unless the pool has a worker to spare. Below 1000 the worker polls (costs CPU); 0 (off) to 1000000.",
            min = "0",
            max = "1000000")
    long watch_period_us() default EngineSettings.DEFAULT_WATCH_PERIOD_MICROS;

    @AttributeDefinition(
            name = "Watch only channels called again soon",
            description = "Watch a channel after an upcall only while its calls have been coming within the watch"
                    + " period: a per-channel saturating counter counts up when the next call came that soon (a watch"
                    + " hit, or a call soon after an unwatched upcall) and down when it did not, and the channel is"
                    + " watched at 2 or 3 of 3. A new connection starts at 1, so its first upcall is not watched: a"
                    + " storm of one-call connections, or calls further apart than the period, hold no thread"
                    + " watching. Off: watch after every upcall, as omniORB does.")
    boolean watch_adaptive() default EngineSettings.DEFAULT_WATCH_ADAPTIVE;

    @AttributeDefinition(
            name = "Wake after upcall",
            description = "Wake the loop when an update (such as the re-arm after an upcall) comes from another"
                    + " thread. Turn off only to reproduce the omniORB bug in benchmarks: a re-armed channel then"
                    + " waits for the select timeout.")
    boolean wakeup_after_upcall() default true;

    @AttributeDefinition(
            name = "Loop wait timeout (ms)",
            description = "The longest a swap's drain, a cancel or a shutdown waits for a select loop. A loop stuck"
                    + " in a consumer callback (an inline handler or an accept handler factory that blocks) cannot"
                    + " answer; after this long the waiter logs a warning and goes on, and the loop lets its"
                    + " channels go when the callback returns. 1 to 600000.",
            min = "1",
            max = "600000")
    long loop_wait_timeout_ms() default EngineSettings.DEFAULT_LOOP_WAIT_TIMEOUT_MS;

    @AttributeDefinition(
            name = "Hand the loop over",
            description = "Each select loop has a second thread. The loop thread that finds a pool upcall ready hands"
                    + " the selecting to that thread, if it is free, and runs the upcall itself, with no hand-off on"
                    + " the call's path (Jetty's execute-produce-consume); a handler that blocks holds only its own"
                    + " thread, and while the second thread is busy upcalls go to the pool. Off: every pool upcall"
                    + " goes to a worker.")
    boolean loop_handover() default EngineSettings.DEFAULT_LOOP_HANDOVER;

    @AttributeDefinition(
            name = "Take the loop over after (µs)",
            description = "With the hand-over on: a loop thread that finds a pool upcall ready runs it itself while"
                    + " the loop's second thread stands by, and that thread takes the selecting over once one upcall"
                    + " has run this long (between one and two such periods), so a handler that blocks holds the"
                    + " loop's other channels up for about that long, once: its channel's later upcalls go to the"
                    + " pool. 0: hand the selecting over before every such upcall instead (a wake-up per call)."
                    + " 0 to 1000000.",
            min = "0",
            max = "1000000")
    long loop_takeover_after_micros() default EngineSettings.DEFAULT_LOOP_TAKEOVER_AFTER_MICROS;
}
