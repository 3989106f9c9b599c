package org.rouse.selector.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.selector.spi.SelectorEngine;
import org.rouse.selector.spi.SelectorEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A selector engine with one or more NIO select loops ({@code rouse-selector-loop-N}, see {@link SelectLoop}) and a
 * worker pool ({@code rouse-selector-worker-N}). Configured through PID {@value #PID}.
 *
 * <p>There is deliberately no {@code @Modified} method: a configuration change makes DS deactivate this instance
 * and activate a new one, and the selector front treats that as a hot swap (it drains this engine and attaches
 * every channel to the new one, without closing any). That is also how the number of loops changes at run time.
 */
@Component(service = SelectorEngine.class, configurationPid = NioSelectorEngine.PID)
@Designate(ocd = SelectorEngineConfig.class)
public final class NioSelectorEngine implements SelectorEngine {

    /*
     * Implementation notes.
     *
     * Sources. The SelectorEngine contract (attach/drain linearizable, re-arm through the front); omniORB's
     * connectionWatchPeriod for the watch period (see ConnectionWatcher); loops, selectors and wakeup coalescing: see
     * SelectLoop.
     *
     * Layout. `attached` maps every entry that belongs to this engine to its Attachment (the loop it is assigned to,
     * a flag that says it is still attached, and its activity epoch); attach adds (to the loop with the fewest
     * entries, counted in `assignedPerLoop`), detach removes and drain empties it, all under `stateLock`, which also
     * guards `draining` (`closed` is written under it); whoever removes a mapping clears its Attachment's flag in the
     * same critical section. The Attachment is also the key attachment of the channel in its loop's selector, so the
     * loop's hand-off (processSelected, submit) and a watched chain of upcalls read membership and mark activity on an
     * object they hold, with no lookup in `attached`. `upcallOnThisThread` is each worker's record of the pool upcall
     * it runs (its attachment, its watch session, and the ready ops of the next upcall a watch found). `activity`
     * (ChannelActivity) counts the channels recently handed to the pool, the pool's demand.
     *
     * Algorithm. Pool upcalls and the watch period: a loop runs a ready pool entry itself while its other thread
     * stands by (the take-over, see SelectLoop: no watch, and the re-arm applies on the loop thread at once), or
     * hands it to submit(), which runs entry.dispatch on a worker, or, after handing the loop to its
     * other thread (the take-over off), runs it itself through runHere(), exactly as a worker would (runUpcalls). The front's dispatch ends by calling update(entry) on the engine active then, from
     * the same worker. When a watch period is configured, update() recognises that call (the worker's Upcall in
     * `upcallOnThisThread` names the entry), and, only while the pool has capacity to spare (no upcall waits, and a
     * worker is idle or may be started), first watches the channel (ConnectionWatcher). If it becomes ready, update()
     * leaves the loop's key at interest 0 and records the ready ops in the Upcall; the worker then runs the next
     * upcall itself and the loop never hears of it. Otherwise the re-arm goes to the loop as usual. The adaptive
     * watch (watch.adaptive) decides which upcall ends watch at all: a miss holds a thread for the whole period, so
     * a channel is watched only while its calls have been coming within the period. Each Attachment keeps a 2-bit
     * saturating counter (Attachment.watchScore, as a branch predictor's): a watch hit counts up, a miss down; after
     * an unwatched end (skipped, cut short, no spare worker) the next call that reaches runUpcalls from the loop
     * counts up if it came within the period of that end (a watch would have found it), else down. An upcall end
     * watches while the counter is at least 2. A new channel starts at 1: a one-call connection never watches, a
     * sequence of calls watches from its second call on, and the one miss at the end of each chain of calls does not
     * stop the watching of the next chain.
     * Drain: queued on every loop (and waited for): cancel every key and flush the cancellations with selectNow(),
     * so every channel is deregistered but stays open. Upcalls in flight finish on this pool and re-arm through the
     * front into the next engine; a watch in flight finds its entry no longer attached and hands it back. The wait
     * is bounded by loop.wait.timeout.ms: a loop stuck in a consumer callback (an inline handler, an accept handler
     * factory) cannot run its queued deregisterAll. The drain then returns every entry anyway and logs the stuck
     * loop's stack; nothing is lost, because the stuck loop runs the queued deregisterAll as soon as the callback
     * returns (its task queue is FIFO, so before any later attach), and until then it dispatches nothing it no
     * longer owns (processSelected checks Attachment.attached). The next engine registers the channels alongside (a
     * channel may belong to several selectors); the entry whose callback is stuck has interest 0 there until its
     * upcall returns and re-arms it. `flushing` keeps the drain's flush visible to cancels until every loop has run it.
     *
     * Deregistration (cancel, close): deregister() removes the entry and queues a cancel-and-flush on its loop, then
     * waits for that flush (bounded), except on a loop thread of this engine, which never waits for a loop: its own
     * loop flushes at once, another loop's flush completes the returned stage later. A worker's watch selector may
     * also hold the channel: from a hit until the end of that worker's task (ConnectionWatcher). The worker running
     * the entry's upcall releases that registration itself when it is the caller; any other caller gets a stage
     * that completes when that task ends, and never waits for it (it runs consumer code). `watchedUpcalls` finds
     * the task: runUpcalls puts its Upcall there before the front's dispatch reads the registration's state, and
     * the front writes that state before calling deregister, so either deregister sees the task or the task sees
     * the registration ended and never watches (Dekker, on the map's and the state's volatile accesses).
     *
     * Invariants.
     * 1. attach/drain are linearizable: both run under `stateLock`, and an attach overlapping a drain (`draining`)
     *    returns false. The selector operations a loop runs for an entry check membership (Attachment.attached)
     *    when they run, so work queued before a drain or detach is skipped. After a drain the engine is empty and
     *    accepts entries again, so the front can fall back to it later.
     * 2. No two upcalls of one channel overlap: the loop's key stays disarmed while the worker watches and runs, and
     *    the front's per-channel upcall flag turns away a second dispatch that another thread's re-arm could start
     *    meanwhile.
     * 3. A watch never takes the last worker from other channels: it starts only while the pool has a spare worker.
     *    A hand-off that finds no idle worker gets a new thread while the pool has fewer workers than recently active
     *    channels (so each of a steady set of connections keeps its watching worker); at or beyond that it cuts a
     *    watch short and queues behind it (submit) instead of starting a thread.
     */

    /** The configuration PID. */
    public static final String PID = "org.rouse.selector.engine";

    private static final Logger LOG = LoggerFactory.getLogger(NioSelectorEngine.class);

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private static final long SHUTDOWN_WAIT_SECONDS = 10;

    private final String name;
    private final EngineSettings settings;
    private final SelectLoop[] loops;
    private final WorkerPool workers;
    private final ConnectionWatcher watcher;

    /** Channels recently with an upcall; marked by loops and watches on each entry's Attachment. */
    private final ChannelActivity activity;

    /**
     * Entry to its attachment (and so its loop); changed under stateLock (a loop may remove one it failed to
     * register), which clears the removed Attachment's flag in the same critical section.
     */
    private final ConcurrentHashMap<SelectorEntry, Attachment> attached = new ConcurrentHashMap<>();

    private final Object stateLock = new Object();

    /** Entries assigned to each loop, by loop index; guarded by stateLock. */
    private final int[] assignedPerLoop;

    /** True while a drain runs; guarded by stateLock. */
    private boolean draining;

    /** Set once by shutdown under stateLock; read without the lock. */
    private volatile boolean closed;

    /** A drain's flush not yet run by every loop, or null; written under stateLock, read under it. */
    private CompletableFuture<Void> flushing;

    /** Tasks of pool upcalls that may watch their channel, by entry; put and removed by the worker running one. */
    private final ConcurrentHashMap<SelectorEntry, Upcall> watchedUpcalls = new ConcurrentHashMap<>();

    /** The upcall a worker thread is running for this engine, if any; each worker reads and writes its own. */
    private final ThreadLocal<Upcall> upcallOnThisThread = new ThreadLocal<>();

    private final AtomicLong wakeupsRequested = new AtomicLong();

    /** Upcalls after which the adaptive watch did not watch (the channel had not shown it is called again soon). */
    private final LongAdder watchesSkipped = new LongAdder();

    /**
     * Upcalls after which a watch was due but none could start (no watch slot, no interest, no spare worker, or an
     * upcall not tracked because the channel's previous one was still finishing), so the channel was re-armed; with
     * skipped, hits and misses (cut-short watches among them) every upcall end counts exactly once.
     */
    private final LongAdder watchesUnavailable = new LongAdder();

    /**
     * From a re-arm requested on another thread (an upcall ending) to the loop applying it, just before its next
     * select: the delay omniORB's missing wakeup turned into a select timeout. Recorded by the loops; the recorder
     * is thread-safe and {@link #counters()} folds its intervals into {@link #rearmTotal} under that object's lock.
     */
    private final Recorder rearmLatency = new Recorder(3);

    private final Histogram rearmTotal = new Histogram(3);

    /** Called by DS. */
    @Activate
    public NioSelectorEngine(SelectorEngineConfig config) {
        this(EngineSettings.from(config));
    }

    /** Starts an engine with validated settings (also used by tests). */
    NioSelectorEngine(EngineSettings settings) {
        this.settings = settings;
        this.name = "nio-" + INSTANCES.incrementAndGet();
        this.watcher = new ConnectionWatcher(settings.watchPeriodMicros());
        this.loops = new SelectLoop[settings.loops()];
        this.assignedPerLoop = new int[loops.length];
        SelectLoop.Host host = new LoopHost();
        for (int i = 0; i < loops.length; i++) {
            loops[i] = new SelectLoop(
                    name,
                    i,
                    settings.selectTimeoutMs(),
                    settings.loopHandover(),
                    settings.loopTakeoverAfterMicros(),
                    rearmLatency,
                    host);
        }
        this.activity = new ChannelActivity(TimeUnit.SECONDS.toNanos(settings.idleTimeoutSeconds()));
        this.workers = WorkerPool.create(settings, "rouse-selector-worker-", activity::recent);
        for (SelectLoop loop : loops) {
            loop.start();
        }
        LOG.info("Selector engine {} started with {}", name, settings);
    }

    /**
     * For tests and benchmarks outside this package: an engine started at once with {@code settings} (not
     * validated). Stop it with {@link #stop(NioSelectorEngine)}.
     */
    public static NioSelectorEngine started(EngineSettings settings) {
        return new NioSelectorEngine(settings);
    }

    /** Stops an engine made by {@link #started(EngineSettings)} as DS deactivation does; idempotent. */
    public static void stop(NioSelectorEngine engine) {
        engine.shutdown();
    }

    @Deactivate
    void deactivate() {
        shutdown();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean attach(SelectorEntry entry) {
        SelectLoop loop;
        synchronized (stateLock) {
            if (closed || draining) {
                return false;
            }
            loop = leastAssigned();
            Attachment attachment = new Attachment(entry, loop);
            if (attached.putIfAbsent(entry, attachment) != null) {
                return true; // already attached here
            }
            assignedPerLoop[loop.index()]++;
            loop.attach(attachment); // queued unless on that loop's thread: under the lock, so a drain comes after it
        }
        if (!loop.onLoop()) {
            requestWakeup(loop);
        }
        return true;
    }

    @Override
    public void update(SelectorEntry entry) {
        Attachment attachment = attached.get(entry);
        if (attachment == null) {
            return; // a queued attach reads the entry's operations when it runs
        }
        if (watcher.enabled() && watchedNextUpcall(attachment)) {
            return;
        }
        if (attachment.loop.update(entry, settings.wakeupAfterUpcall())) {
            wakeupsRequested.incrementAndGet();
        }
    }

    @Override
    public boolean detach(SelectorEntry entry) {
        SelectLoop loop;
        synchronized (stateLock) {
            Attachment attachment = attached.remove(entry);
            if (attachment == null) {
                return false;
            }
            attachment.attached = false;
            loop = attachment.loop;
            assignedPerLoop[loop.index()]--;
            if (closed) {
                return true;
            }
            loop.detach(entry);
        }
        if (!loop.onLoop()) {
            requestWakeup(loop);
        }
        return true;
    }

    @Override
    public CompletionStage<Void> deregister(SelectorEntry entry) {
        SelectLoop loop = null;
        CompletableFuture<Void> keyFlushed = null;
        CompletableFuture<Void> drainFlushed;
        synchronized (stateLock) {
            Attachment attachment = attached.remove(entry);
            if (attachment != null) {
                attachment.attached = false;
                loop = attachment.loop;
                assignedPerLoop[loop.index()]--;
                if (!closed) {
                    keyFlushed = loop.detach(entry); // already complete on that loop's own thread
                }
            }
            drainFlushed = flushing;
        }
        if (keyFlushed != null && !loop.onLoop()) {
            requestWakeup(loop);
        }
        CompletableFuture<Void> watchReleased = releaseWatch(entry);
        if (loop == null && drainFlushed == null && watchReleased == null) {
            return null;
        }
        CompletableFuture<Void> loopsDone = allOf(keyFlushed, drainFlushed);
        if (!loopsDone.isDone() && !onAnyLoop()) {
            leaveLoopsBeforeWaiting();
            awaitLoops(loopsDone, "deregistering " + entry.channel());
        }
        return watchReleased == null ? loopsDone : CompletableFuture.allOf(loopsDone, watchReleased);
    }

    @Override
    public void wakeup() {
        for (SelectLoop loop : loops) {
            requestWakeup(loop);
        }
    }

    /** Runs {@code task} on the first loop's thread (the one loop tasks of the front are promised). */
    @Override
    public void execute(Runnable task) {
        SelectLoop loop = loops[0];
        synchronized (stateLock) {
            if (closed) {
                throw new RejectedExecutionException("selector engine " + name + " has shut down");
            }
            loop.enqueue(task);
        }
        if (!loop.onLoop()) {
            requestWakeup(loop);
        }
    }

    @Override
    public List<SelectorEntry> drain() {
        List<SelectorEntry> entries;
        @SuppressWarnings("unchecked")
        CompletableFuture<Void>[] deregistered = new CompletableFuture[loops.length];
        CompletableFuture<Void> all;
        List<SelectLoop> here = new ArrayList<>(1);
        synchronized (stateLock) {
            if (closed) {
                return List.of();
            }
            draining = true;
            entries = new ArrayList<>(attached.size());
            for (Attachment attachment : attached.values()) {
                attachment.attached = false;
                entries.add(attachment.entry);
            }
            attached.clear();
            Arrays.fill(assignedPerLoop, 0);
            for (SelectLoop loop : loops) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                deregistered[loop.index()] = done;
                if (loop.onLoop()) {
                    here.add(loop);
                } else {
                    loop.enqueue(() -> {
                        loop.deregisterAll();
                        done.complete(null);
                    });
                }
            }
            all = CompletableFuture.allOf(deregistered);
            flushing = all;
        }
        all.whenComplete((ignored, failure) -> {
            synchronized (stateLock) {
                if (flushing == all) {
                    flushing = null;
                }
            }
        });
        watcher.cutAll(); // their channels belong to the next engine now
        try {
            for (SelectLoop loop : here) { // drained from inside a loop task: that loop deregisters now
                loop.deregisterAll();
                deregistered[loop.index()].complete(null);
            }
            for (SelectLoop loop : loops) {
                loop.wakeup();
            }
            leaveLoopsBeforeWaiting();
            if (!awaitBounded(all)) {
                warnStuck(deregistered, entries.size());
            }
        } finally {
            synchronized (stateLock) {
                draining = false;
            }
        }
        LOG.info("Selector engine {} drained {} channels", name, entries.size());
        return entries;
    }

    @Override
    public long wakeupsRequested() {
        return wakeupsRequested.get();
    }

    @Override
    public long wakeupsWritten() {
        return sum(SelectLoop::wakeupsWritten);
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("loops", (long) loops.length);
        counters.put("channels", (long) attached.size());
        counters.put("select.cycles", selectCycles());
        counters.put("selects.timed.out", timedOutSelects());
        counters.put("wakeups.requested", wakeupsRequested.get());
        counters.put("wakeups.written", wakeupsWritten());
        counters.put("rebuilds", rebuilds());
        counters.put("loop.handovers", sum(SelectLoop::handovers));
        counters.put("loop.upcalls", sum(SelectLoop::upcallsOnLoop));
        counters.put("loop.takeovers", sum(SelectLoop::takeovers));
        counters.put("loop.standby.parked", sum(loop -> loop.standbyParked() ? 1 : 0));
        counters.put("pool.threads", (long) workers.threads());
        counters.put("pool.threads.idle", (long) workers.idleThreads());
        counters.put("pool.threads.max", (long) workers.maxThreads());
        counters.put("pool.threads.created", workers.threadsCreated());
        counters.put("pool.threads.starting", workers.threadsStarting());
        counters.put("pool.threads.retired", workers.threadsRetired());
        counters.put("pool.threads.grown.after.wait", workers.threadsGrownAfterWait());
        counters.put("pool.threads.grown.for.demand", workers.threadsGrownForDemand());
        counters.put("channels.recently.active", (long) activity.recent());
        counters.put("pool.queued", (long) workers.queued());
        counters.put("pool.completed", workers.completed());
        counters.put("watch.hits", watcher.hits());
        counters.put("watch.misses", watcher.misses());
        counters.put("watch.cut.short", watcher.cutShort());
        counters.put("watch.skipped", watchesSkipped.sum());
        counters.put("watch.unavailable", watchesUnavailable.sum());
        counters.put("watch.active", (long) watcher.watching());
        synchronized (rearmTotal) {
            rearmTotal.add(rearmLatency.getIntervalHistogram());
            counters.put("rearm.count", rearmTotal.getTotalCount());
            counters.put("rearm.p50.ns", rearmTotal.getValueAtPercentile(50));
            counters.put("rearm.p99.ns", rearmTotal.getValueAtPercentile(99));
            counters.put("rearm.p999.ns", rearmTotal.getValueAtPercentile(99.9));
            counters.put("rearm.max.ns", rearmTotal.getMaxValue());
        }
        return counters;
    }

    @Override
    public String toString() {
        return "NioSelectorEngine[" + name + ", " + loops.length + " loops, " + attached.size() + " channels]";
    }

    /** Selects that ended by timing out: each one a moment a loop had to poll to find work. */
    long timedOutSelects() {
        return sum(SelectLoop::timedOutSelects);
    }

    /** Completed select calls of all loops. */
    long selectCycles() {
        return sum(SelectLoop::selectCycles);
    }

    /** How many times a selector was rebuilt. */
    long rebuilds() {
        return sum(SelectLoop::rebuilds);
    }

    /** Whether every loop is about to block or blocked in select (a wakeup would be written). */
    boolean isSelecting() {
        for (SelectLoop loop : loops) {
            if (!loop.isSelecting()) {
                return false;
            }
        }
        return true;
    }

    /** Rebuilds every loop's selector as if it had spun (tests: the bug cannot be provoked). */
    void forceRebuild() {
        for (SelectLoop loop : loops) {
            loop.forceRebuild();
        }
    }

    /** Channels assigned to each loop, in loop order (tests). */
    int[] channelsPerLoop() {
        synchronized (stateLock) {
            return assignedPerLoop.clone();
        }
    }

    /**
     * Stops the engine: deregisters whatever is still attached (channels stay open), stops and joins the loops,
     * then shuts the worker pool down, waiting a bounded time for upcalls in progress. Idempotent.
     */
    void shutdown() {
        int left;
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            closed = true;
            left = attached.size();
            for (Attachment attachment : attached.values()) {
                attachment.attached = false;
            }
            attached.clear();
        }
        if (left > 0) {
            LOG.warn(
                    "Selector engine {} shuts down with {} channels attached; they are deregistered, not closed",
                    name,
                    left);
        }
        for (SelectLoop loop : loops) {
            if (!loop.stop(settings.loopWaitTimeoutMs())) {
                LOG.warn(
                        "Selector engine {}: loop {} did not stop within loop.wait.timeout.ms = {} ms; it is stuck in"
                                + " a callback and ends (closing its selector) when that returns:\n{}",
                        name,
                        loop,
                        settings.loopWaitTimeoutMs(),
                        loop.whereStuck());
            }
        }
        watcher.cutAll(); // a worker watching a channel would otherwise hold the shutdown for up to the period
        workers.shutdown();
        long upcallsDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SHUTDOWN_WAIT_SECONDS);
        try {
            if (!workers.awaitTermination(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn(
                        "Selector engine {}: upcalls still running after {} s; interrupting them",
                        name,
                        SHUTDOWN_WAIT_SECONDS);
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            for (SelectLoop loop : loops) { // an upcall a loop thread runs after a hand-over, treated as a worker's
                if (!loop.awaitUpcall(upcallsDeadline)) {
                    LOG.warn(
                            "Selector engine {}: an upcall still running on a thread of loop {} after {} s;"
                                    + " interrupting it",
                            name,
                            loop,
                            SHUTDOWN_WAIT_SECONDS);
                }
            }
            watcher.close();
        }
        LOG.info("Selector engine {} stopped", name);
    }

    /** A pool upcall that holds its loop (take-over on) hands the loop over before it waits for that loop. */
    private void leaveLoopsBeforeWaiting() {
        for (SelectLoop loop : loops) {
            loop.leaveBeforeWaiting();
        }
    }

    /** Whether the calling thread is one of this engine's loop threads (which must never wait for a loop). */
    private boolean onAnyLoop() {
        for (SelectLoop loop : loops) {
            if (loop.onLoop()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Releases the watch registration of the entry's channel if the caller is the worker running its upcall, and
     * otherwise finds the task of another worker that may hold one.
     *
     * @return null if no watch holds the channel any more, else a stage completed when that task ends
     */
    private CompletableFuture<Void> releaseWatch(SelectorEntry entry) {
        if (!watcher.enabled()) {
            return null;
        }
        Upcall mine = upcallOnThisThread.get();
        if (mine != null && mine.entry == entry) {
            watcher.release(mine.session); // this thread's own selector: deregistered now
            return null;
        }
        Upcall running = watchedUpcalls.get(entry);
        return running == null ? null : running.ended();
    }

    private static CompletableFuture<Void> allOf(CompletableFuture<Void> a, CompletableFuture<Void> b) {
        if (a == null || a.isDone()) {
            return b == null ? CompletableFuture.completedFuture(null) : b;
        }
        return b == null || b.isDone() ? a : CompletableFuture.allOf(a, b);
    }

    /** Waits for {@code loopsDone} up to loop.wait.timeout.ms, uninterruptibly; returns whether it completed. */
    private boolean awaitBounded(CompletableFuture<Void> loopsDone) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.loopWaitTimeoutMs());
        boolean interrupted = false;
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return loopsDone.isDone();
                }
                try {
                    loopsDone.get(left, TimeUnit.NANOSECONDS);
                    return true;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException | TimeoutException e) {
                    return loopsDone.isDone();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void awaitLoops(CompletableFuture<Void> loopsDone, String what) {
        if (!awaitBounded(loopsDone)) {
            LOG.warn(
                    "Selector engine {}: {}: a select loop did not flush within loop.wait.timeout.ms = {} ms (a"
                            + " callback on it blocks?); returning, the channel leaves the selector when the loop"
                            + " runs again",
                    name,
                    what,
                    settings.loopWaitTimeoutMs());
        }
    }

    private void warnStuck(CompletableFuture<Void>[] deregistered, int channels) {
        for (SelectLoop loop : loops) {
            if (!deregistered[loop.index()].isDone()) {
                LOG.warn(
                        "Selector engine {}: drain gave up waiting for loop {} after loop.wait.timeout.ms = {} ms: it"
                                + " is stuck in a callback. All {} channels move to the next engine; the stuck loop"
                                + " deregisters its keys, and the channel whose callback it runs re-arms in the next"
                                + " engine, when the callback returns. The loop is at:\n{}",
                        name,
                        loop,
                        settings.loopWaitTimeoutMs(),
                        channels,
                        loop.whereStuck());
            }
        }
    }

    /** Requests a wakeup of {@code loop} (counted; written only if the loop is selecting). */
    private void requestWakeup(SelectLoop loop) {
        wakeupsRequested.incrementAndGet();
        loop.wakeup();
    }

    /** A counter summed over the loops. */
    private long sum(ToLongFunction<SelectLoop> counter) {
        long total = 0;
        for (SelectLoop loop : loops) {
            total += counter.applyAsLong(loop);
        }
        return total;
    }

    private SelectLoop leastAssigned() {
        int best = 0;
        for (int i = 1; i < loops.length; i++) {
            if (assignedPerLoop[i] < assignedPerLoop[best]) {
                best = i;
            }
        }
        return loops[best];
    }

    /**
     * The end of an upcall on a worker (update called from the worker running it): watches the channel and, if it
     * becomes ready while attached to the same loop, records the next upcall for the worker instead of re-arming.
     */
    private boolean watchedNextUpcall(Attachment attachment) {
        Upcall upcall = upcallOnThisThread.get();
        if (upcall == null || upcall.attachment != attachment || upcall.nextOps != 0) {
            return false;
        }
        if (!upcall.tracked) {
            // the channel's previous upcall is still finishing on another thread (it re-armed, and this one came
            // before its worker untracked it): no watch, but the end counts once, as every tracked end does
            watchesUnavailable.increment();
            attachment.endedUnwatched(System.nanoTime());
            return false;
        }
        boolean adaptive = settings.watchAdaptive();
        if (adaptive && !attachment.watchPredicted()) {
            watchesSkipped.increment();
            attachment.endedUnwatched(System.nanoTime());
            return false;
        }
        long upcallEnd = adaptive ? System.nanoTime() : 0;
        SelectorEntry entry = attachment.entry;
        // a worker's watch is cuttable from here (it counts as soft-idle); a loop thread's is not: it goes back to
        // standby, not to the pool's backlog, so it could not take the upcall a cut would queue for it
        ConnectionWatcher.Watch watch = watcher.begin(upcall.session, !upcall.onLoopThread);
        if (watch == null) {
            watchesUnavailable.increment();
            attachment.endedUnwatched(upcallEnd);
            return false;
        }
        int interest = entry.interestOps();
        if (interest == 0 || !workers.hasSpareWorker()) {
            watcher.abandon(watch);
            watchesUnavailable.increment();
            attachment.endedUnwatched(upcallEnd);
            return false;
        }
        int ready = watcher.await(watch, upcall.session, entry.channel(), interest) & entry.interestOps();
        if (ready == 0 || !attachment.attached) {
            if (watch.wasCutShort()) {
                attachment.endedUnwatched(upcallEnd); // not the channel's doing: its next call tells
            } else {
                attachment.scoreWatch(false); // a miss: the next call did not come within the period
            }
            return false;
        }
        attachment.scoreWatch(true);
        upcall.nextOps = ready;
        return true;
    }

    /**
     * The adaptive watch, when a call reaches a thread from the loop after an unwatched end: whether a watch would
     * have found it (it came within the period of that end) scores like a watch's hit or miss.
     */
    private void callArrived(Attachment attachment) {
        if (!attachment.endedUnwatched) {
            return;
        }
        attachment.endedUnwatched = false;
        attachment.scoreWatch(System.nanoTime() - attachment.unwatchedEndNanos <= watcher.periodNanos());
    }

    /** Runs a pool upcall, and the upcalls the watch period finds ready after it, on the calling worker. */
    private void runUpcalls(Attachment attachment, int readyOps, boolean onLoopThread) {
        SelectorEntry entry = attachment.entry;
        if (!watcher.enabled()) {
            dispatchSafely(entry, readyOps);
            attachment.loop.afterUpcall();
            return;
        }
        if (settings.watchAdaptive()) {
            callArrived(attachment);
        }
        Upcall upcall = new Upcall(attachment, onLoopThread);
        upcallOnThisThread.set(upcall);
        // before the front's dispatch reads the registration's state (see the notes); a second task of the same
        // entry (briefly possible during a swap, or when the channel's previous upcall re-armed it and its worker has
        // not yet untracked it) is not tracked and therefore never watches
        upcall.tracked = watchedUpcalls.putIfAbsent(entry, upcall) == null;
        try {
            int ops = readyOps;
            do {
                upcall.nextOps = 0;
                dispatchSafely(entry, ops);
                ops = upcall.nextOps;
                if (ops != 0) {
                    activity.mark(attachment); // a chain of watched calls never passes the loop's hand-off
                }
            } while (ops != 0);
        } finally {
            upcallOnThisThread.remove();
            watcher.end(upcall.session);
            if (upcall.tracked) {
                watchedUpcalls.remove(entry, upcall);
            }
            upcall.end();
        }
        attachment.loop.afterUpcall();
    }

    private void dispatchSafely(SelectorEntry entry, int readyOps) {
        try {
            entry.dispatch(readyOps);
        } catch (Throwable t) { // dispatch must not throw; if it does, it must not kill a worker
            LOG.error("Selector engine {}: dispatch of {} threw", name, entry, t);
        }
    }

    /**
     * The upcall a worker is running; {@code nextOps} is set by a successful watch. Confined to that worker, except
     * {@link #ended()}, which a deregistering thread calls.
     */
    private static final class Upcall {
        private static final CompletableFuture<Void> ENDED = CompletableFuture.completedFuture(null);

        final Attachment attachment;
        final SelectorEntry entry;
        final ConnectionWatcher.Session session = new ConnectionWatcher.Session();
        /** Whether a loop thread runs it after a hand-over (its watch cannot be cut to serve another upcall). */
        final boolean onLoopThread;

        int nextOps;

        /** Whether this task is the one in watchedUpcalls (only a tracked task watches); worker only. */
        boolean tracked;

        /** Null, a future a deregistering thread waits on, or ENDED once the task ended; by CAS. */
        private final AtomicReference<CompletableFuture<Void>> end = new AtomicReference<>();

        Upcall(Attachment attachment, boolean onLoopThread) {
            this.onLoopThread = onLoopThread;
            this.attachment = attachment;
            this.entry = attachment.entry;
        }

        /** A stage completed when this task has ended (and with it its watch registration). */
        CompletableFuture<Void> ended() {
            CompletableFuture<Void> mine = new CompletableFuture<>();
            CompletableFuture<Void> witness = end.compareAndExchange(null, mine);
            return witness == null ? mine : witness;
        }

        /** Called by the worker once the task is over. */
        void end() {
            CompletableFuture<Void> waiting = end.getAndSet(ENDED);
            if (waiting != null) {
                waiting.complete(null);
            }
        }
    }

    /** The engine as its loops see it. */
    private final class LoopHost implements SelectLoop.Host {

        @Override
        public void registrationFailed(Attachment attachment) {
            synchronized (stateLock) {
                if (attached.remove(attachment.entry, attachment)) {
                    attachment.attached = false;
                    assignedPerLoop[attachment.loop.index()]--;
                }
            }
        }

        @Override
        public void submit(Attachment attachment, int readyOps) {
            Runnable upcall = () -> runUpcalls(attachment, readyOps, false);
            activity.mark(attachment);
            if (watcher.enabled()
                    && !workers.hasIdleWorker()
                    && !workers.belowDemand() // below it the pool grows at once and every watch runs on
                    && watcher.cutOneShort()
                    && workers.queueWithoutGrowing(upcall)) {
                // the worker whose watch was cut short takes it: watching never makes the pool start a thread at once
                return;
            }
            workers.execute(upcall);
        }

        @Override
        public void runHere(Attachment attachment, int readyOps) {
            activity.mark(attachment);
            runUpcalls(attachment, readyOps, true);
        }
    }
}
