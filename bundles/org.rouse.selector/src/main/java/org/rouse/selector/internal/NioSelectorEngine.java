package org.rouse.selector.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
 * A selector engine with one NIO select loop ({@code rouse-selector-loop-0}) and a worker pool
 * ({@code rouse-selector-worker-N}). Configured through PID {@value #PID}.
 *
 * <p>There is deliberately no {@code @Modified} method: a configuration change makes DS deactivate this instance
 * and activate a new one, and the selector front treats that as a hot swap (it drains this engine and attaches
 * every channel to the new one, without closing any).
 */
@Component(service = SelectorEngine.class, configurationPid = NioSelectorEngine.PID)
@Designate(ocd = SelectorEngineConfig.class)
public final class NioSelectorEngine implements SelectorEngine {

    /*
     * Implementation notes.
     *
     * Ownership: the loop thread alone touches the Selector and its keys (register, interestOps, cancel, select).
     * Other threads hand it work through `pending`, which the loop runs before every select; the loop thread
     * applies its own attach/update/detach at once.
     *
     * Membership: `attached` is the truth about which entries belong to this engine. attach adds, detach removes
     * and drain empties it, all under `stateLock`, which makes attach/drain linearizable: an attach overlapping a
     * drain (`draining`) returns false. The selector operations queued for an entry check membership when they
     * run, so work queued before a drain or detach is skipped. After a drain the engine is empty and accepts
     * entries again, so the front can fall back to it later.
     *
     * Wakeup coalescing (Netty's scheme): `awake` is true except from just before the loop checks for pending work
     * until select returns. wakeup() writes selector.wakeup() only if it flips `awake` from false to true, so at most
     * one wakeup is written per select cycle and none while the loop is awake. Dekker-style correctness: the loop
     * sets awake=false, then checks `pending`; a producer adds to `pending`, then reads `awake`; one of them sees
     * the other.
     *
     * Pool dispatch: the loop zeroes the key's interest ops, then hands entry.dispatch(readyOps) to a worker. The
     * engine never re-arms after a dispatch; the front calls update() on whichever engine is active by then. If
     * the pool is saturated the ready entry waits in `overflow` (loop-only) and the next finishing worker wakes the
     * loop to retry.
     *
     * Drain: runs on the loop (queued, and waited for): cancel every key and flush the cancellations with
     * selectNow(), so every channel is deregistered but stays open. Loop tasks already queued still run here;
     * upcalls in flight finish on this pool and re-arm through the front into the next engine.
     *
     * Epoll spin bug: SpinDetector counts selects that return at once with nothing selected and no wakeup; after
     * 512 in a row the loop opens a new selector, registers every valid key's channel with it (same interest ops
     * and attachment; a channel may belong to two selectors at once), cancels the old keys, publishes the new
     * selector in the volatile field and closes the old one, logging a warning. Wakeups stay correct because a
     * producer writes one only after its CAS on `awake` succeeded, and the loop clears `awake` only after the new
     * selector is published.
     */

    /** The configuration PID. */
    public static final String PID = "org.rouse.selector.engine";

    private static final Logger LOG = LoggerFactory.getLogger(NioSelectorEngine.class);

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private static final long SHUTDOWN_WAIT_SECONDS = 10;

    private final String name;
    private final EngineSettings settings;
    /** Replaced only by the loop thread when it rebuilds the selector (the epoll spin bug); read by any thread. */
    private volatile Selector selector;

    private final Thread loop;
    private final WorkerPool workers;

    /** Work for the loop thread; any thread adds, the loop polls. */
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();

    /** Entries attached here; changed under stateLock (the loop may remove one whose registration failed). */
    private final Set<SelectorEntry> attached = ConcurrentHashMap.newKeySet();

    private final Object stateLock = new Object();

    /** True while a drain runs; guarded by stateLock. */
    private boolean draining;

    /** Set once by shutdown under stateLock; read by the loop without the lock. */
    private volatile boolean closed;

    /** False only while the loop is about to select or selecting; see the notes. CAS by wakeup, set by the loop. */
    private final AtomicBoolean awake = new AtomicBoolean(true);

    /** Whether ready entries wait in overflow; written by the loop, read by workers. */
    private volatile boolean overflowWaiting;

    /** Ready pool entries the saturated pool refused, with their ready ops; loop thread only. */
    private final ArrayDeque<Ready> overflow = new ArrayDeque<>();

    private final AtomicLong wakeupsRequested = new AtomicLong();
    private final AtomicLong wakeupsWritten = new AtomicLong();
    /** Selects that ended by their timeout (no channel ready, nobody woke the loop); loop writes. */
    private final AtomicLong timedOutSelects = new AtomicLong();
    /** Completed select calls; loop writes. */
    private final AtomicLong selectCycles = new AtomicLong();
    /** Selectors replaced by a new one; loop writes. */
    private final AtomicLong rebuilds = new AtomicLong();
    /**
     * From a re-arm requested on another thread (an upcall ending) to the loop applying it, just before its next
     * select: the delay omniORB's missing wakeup turned into a select timeout. Recorded by the loop; the recorder
     * is thread-safe and {@link #counters()} folds its intervals into {@link #rearmTotal} under that object's lock.
     */
    private final Recorder rearmLatency = new Recorder(3);

    private final Histogram rearmTotal = new Histogram(3);

    /** Loop thread only. */
    private final SpinDetector spinDetector = new SpinDetector(SpinDetector.DEFAULT_THRESHOLD);

    /** Called by DS. */
    @Activate
    public NioSelectorEngine(SelectorEngineConfig config) {
        this(EngineSettings.from(config));
    }

    /** Starts an engine with validated settings (also used by tests). */
    NioSelectorEngine(EngineSettings settings) {
        this.settings = settings;
        this.name = "nio-" + INSTANCES.incrementAndGet();
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        this.workers = WorkerPool.create(settings, "rouse-selector-worker-");
        this.loop = new Thread(this::runLoop, "rouse-selector-loop-0");
        loop.setDaemon(true);
        loop.start();
        LOG.info("Selector engine {} started with {}", name, settings);
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
        boolean onLoop = onLoop();
        synchronized (stateLock) {
            if (closed || draining) {
                return false;
            }
            attached.add(entry);
            if (!onLoop) {
                pending.add(() -> attachNow(entry));
            }
        }
        if (onLoop) {
            attachNow(entry);
        } else {
            wakeup();
        }
        return true;
    }

    @Override
    public void update(SelectorEntry entry) {
        if (!attached.contains(entry)) {
            return; // a queued attach reads the entry's operations when it runs
        }
        if (onLoop()) {
            updateNow(entry);
            return;
        }
        long requestedAt = System.nanoTime();
        pending.add(() -> {
            updateNow(entry);
            rearmLatency.recordValue(Math.max(0, System.nanoTime() - requestedAt));
        });
        if (settings.wakeupAfterUpcall()) {
            wakeup();
        }
    }

    @Override
    public boolean detach(SelectorEntry entry) {
        boolean onLoop = onLoop();
        synchronized (stateLock) {
            if (!attached.remove(entry)) {
                return false;
            }
            if (!onLoop && !closed) {
                pending.add(() -> detachNow(entry));
            }
        }
        if (onLoop) {
            detachNow(entry);
        } else {
            wakeup();
        }
        return true;
    }

    @Override
    public void wakeup() {
        wakeupsRequested.incrementAndGet();
        if (!awake.get() && awake.compareAndSet(false, true)) {
            wakeupsWritten.incrementAndGet();
            selector.wakeup();
        }
    }

    @Override
    public void execute(Runnable task) {
        synchronized (stateLock) {
            if (closed) {
                throw new RejectedExecutionException("selector engine " + name + " has shut down");
            }
            pending.add(task);
        }
        if (!onLoop()) {
            wakeup();
        }
    }

    @Override
    public List<SelectorEntry> drain() {
        List<SelectorEntry> entries;
        CountDownLatch done = new CountDownLatch(1);
        boolean onLoop = onLoop();
        synchronized (stateLock) {
            if (closed) {
                return List.of();
            }
            draining = true;
            entries = new ArrayList<>(attached);
            attached.clear();
            if (!onLoop) {
                pending.add(() -> {
                    deregisterAll();
                    done.countDown();
                });
            }
        }
        try {
            if (onLoop) {
                deregisterAll();
            } else {
                wakeup();
                awaitUninterruptibly(done);
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
        return wakeupsWritten.get();
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("channels", (long) attached.size());
        counters.put("select.cycles", selectCycles.get());
        counters.put("selects.timed.out", timedOutSelects.get());
        counters.put("wakeups.requested", wakeupsRequested.get());
        counters.put("wakeups.written", wakeupsWritten.get());
        counters.put("rebuilds", rebuilds.get());
        counters.put("pool.threads", (long) workers.threads());
        counters.put("pool.threads.created", workers.threadsCreated());
        counters.put("pool.threads.retired", workers.threadsRetired());
        counters.put("pool.queued", (long) workers.queued());
        counters.put("pool.completed", workers.completed());
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
        return "NioSelectorEngine[" + name + ", " + attached.size() + " channels]";
    }

    /** Selects that ended by timing out: each one a moment the loop had to poll to find work. */
    long timedOutSelects() {
        return timedOutSelects.get();
    }

    /** Completed select calls. */
    long selectCycles() {
        return selectCycles.get();
    }

    /** Whether the loop is about to block or blocked in select (a wakeup would be written). */
    boolean isSelecting() {
        return !awake.get();
    }

    /**
     * Stops the engine: deregisters whatever is still attached (channels stay open), stops and joins the loop,
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
            attached.clear();
        }
        if (left > 0) {
            LOG.warn(
                    "Selector engine {} shuts down with {} channels attached; they are deregistered, not closed",
                    name,
                    left);
        }
        selector.wakeup();
        if (!onLoop()) {
            joinLoop();
        }
        workers.shutdown();
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
        }
        LOG.info("Selector engine {} stopped", name);
    }

    private void runLoop() {
        try {
            while (!closed) {
                try {
                    runPending();
                    retryOverflow();
                    if (closed) {
                        break;
                    }
                    if (selector.selectedKeys().isEmpty()) {
                        select();
                    }
                    processSelected();
                } catch (ClosedSelectorException e) {
                    break;
                } catch (Throwable t) { // the loop must survive anything a single iteration meets
                    LOG.error("Selector engine {}: loop iteration failed", name, t);
                }
            }
        } finally {
            runPending(); // tasks queued before shutdown still run, and waiters are released
            for (SelectionKey key : selector.keys()) {
                key.cancel();
            }
            try {
                selector.close();
            } catch (IOException e) {
                LOG.debug("Closing the selector of {} failed", name, e);
            }
        }
    }

    private void select() throws IOException {
        awake.set(false);
        if (!pending.isEmpty() || closed) {
            awake.set(true);
            selector.selectNow();
            return;
        }
        long timeout = settings.selectTimeoutMs();
        long start = System.nanoTime();
        int ready = timeout == 0 ? selector.select() : selector.select(timeout);
        boolean woken = awake.getAndSet(true);
        selectCycles.incrementAndGet();
        if (ready == 0 && !woken && timeout != 0) {
            timedOutSelects.incrementAndGet();
        }
        if (spinDetector.spun(ready, woken, System.nanoTime() - start, timeout)) {
            LOG.warn(
                    "Selector engine {}: select returned {} times in a row with nothing ready and nobody waking it"
                            + " (the epoll spin bug); rebuilding the selector",
                    name,
                    SpinDetector.DEFAULT_THRESHOLD);
            rebuildSelector();
        }
    }

    /**
     * Replaces the selector with a new one and moves every registration to it, keeping interest operations and
     * attachments (a channel may be registered with two selectors at once, so nothing is ever unregistered). Loop
     * thread only. Safe against concurrent wakeups: the loop is awake here, and a producer only writes a wakeup
     * after seeing {@code awake == false}, which the loop sets after publishing the new selector.
     */
    private void rebuildSelector() {
        Selector old = selector;
        Selector fresh;
        try {
            fresh = Selector.open();
        } catch (IOException e) {
            LOG.warn("Selector engine {}: cannot open a new selector; keeping the old one", name, e);
            return;
        }
        int moved = 0;
        for (SelectionKey key : old.keys()) {
            if (!key.isValid()) {
                continue;
            }
            try {
                Object attachment = key.attachment();
                SelectionKey movedKey = key.channel().register(fresh, key.interestOps(), attachment);
                if (attachment instanceof SelectorEntry entry) {
                    entry.engineSlot(movedKey);
                }
                key.cancel();
                moved++;
            } catch (IOException | RuntimeException e) { // a channel closed meanwhile: nothing to move
                LOG.debug("Selector engine {}: not moving {}: {}", name, key.channel(), e.toString());
                key.cancel();
            }
        }
        selector = fresh;
        try {
            old.close();
        } catch (IOException e) {
            LOG.debug("Closing the old selector of {} failed", name, e);
        }
        rebuilds.incrementAndGet();
        LOG.warn("Selector engine {}: rebuilt its selector, moving {} channels", name, moved);
    }

    /** Rebuilds the selector on the loop thread as if it had spun (tests: the bug cannot be provoked). */
    void forceRebuild() {
        execute(this::rebuildSelector);
    }

    /** How many times the selector was rebuilt. */
    long rebuilds() {
        return rebuilds.get();
    }

    private void runPending() {
        // bounded, so a task that keeps re-queueing itself cannot starve the selector
        for (int budget = pending.size(); budget > 0; budget--) {
            Runnable work = pending.poll();
            if (work == null) {
                return;
            }
            try {
                work.run();
            } catch (Throwable t) { // a failing loop task must not stop the loop
                LOG.warn("Selector engine {}: loop task failed", name, t);
            }
        }
    }

    private void processSelected() {
        Set<SelectionKey> selected = selector.selectedKeys();
        SelectionKey[] keys = selected.toArray(new SelectionKey[0]);
        selected.clear(); // a flush in attachNow may select more while we dispatch: they wait for the next round
        for (SelectionKey key : keys) {
            SelectorEntry entry = (SelectorEntry) key.attachment();
            int ready;
            try {
                ready = key.readyOps() & key.interestOps();
            } catch (CancelledKeyException e) {
                continue;
            }
            if (ready == 0) {
                continue;
            }
            if (!attached.contains(entry)) {
                key.cancel(); // detached or drained meanwhile
                continue;
            }
            if (entry.inline()) {
                dispatchSafely(entry, ready);
            } else {
                try {
                    key.interestOps(0); // not selected again until the front re-arms it after the upcall
                } catch (CancelledKeyException e) {
                    continue;
                }
                handOff(new Ready(entry, ready));
            }
        }
    }

    private void handOff(Ready ready) {
        if (!overflow.isEmpty()) {
            overflow.add(ready); // keep order behind earlier refused upcalls
            return;
        }
        try {
            workers.execute(() -> {
                dispatchSafely(ready.entry, ready.ops);
                if (overflowWaiting) {
                    wakeup();
                }
            });
        } catch (RejectedExecutionException saturated) {
            overflow.add(ready);
            overflowWaiting = true;
        }
    }

    private void retryOverflow() {
        while (!overflow.isEmpty()) {
            Ready ready = overflow.peek();
            if (!attached.contains(ready.entry)) {
                overflow.poll();
                continue;
            }
            try {
                workers.execute(() -> {
                    dispatchSafely(ready.entry, ready.ops);
                    if (overflowWaiting) {
                        wakeup();
                    }
                });
                overflow.poll();
            } catch (RejectedExecutionException saturated) {
                return;
            }
        }
        overflowWaiting = false;
    }

    private void dispatchSafely(SelectorEntry entry, int readyOps) {
        try {
            entry.dispatch(readyOps);
        } catch (Throwable t) { // dispatch must not throw; if it does, it must not kill a loop or worker
            LOG.error("Selector engine {}: dispatch of {} threw", name, entry, t);
        }
    }

    private void attachNow(SelectorEntry entry) {
        if (!attached.contains(entry)) {
            return; // detached or drained before the loop got to it
        }
        SelectableChannel channel = entry.channel();
        try {
            SelectionKey key;
            try {
                key = channel.register(selector, entry.interestOps(), entry);
            } catch (CancelledKeyException staleKey) {
                selector.selectNow(); // a cancelled key of this channel is still registered: flush it
                key = channel.register(selector, entry.interestOps(), entry);
            }
            entry.engineSlot(key);
        } catch (IOException | RuntimeException e) {
            synchronized (stateLock) {
                attached.remove(entry);
            }
            LOG.warn("Selector engine {}: cannot register {}: {}", name, channel, e.toString());
        }
    }

    private void updateNow(SelectorEntry entry) {
        SelectionKey key = entry.channel().keyFor(selector);
        if (key != null && key.attachment() == entry && attached.contains(entry)) {
            try {
                key.interestOps(entry.interestOps());
            } catch (CancelledKeyException e) {
                // the channel was closed; nothing to arm
            }
        }
    }

    private void detachNow(SelectorEntry entry) {
        SelectionKey key = entry.channel().keyFor(selector);
        if (key != null && key.attachment() == entry) {
            key.cancel();
        }
    }

    private void deregisterAll() {
        for (SelectionKey key : selector.keys()) {
            key.cancel();
        }
        try {
            selector.selectNow(); // deregisters the cancelled keys: the channels are free to join another selector
        } catch (IOException e) {
            LOG.warn("Selector engine {}: flushing cancelled keys failed", name, e);
        }
        selector.selectedKeys().clear();
        overflow.clear();
        overflowWaiting = false;
    }

    private boolean onLoop() {
        return Thread.currentThread() == loop;
    }

    private void joinLoop() {
        boolean interrupted = false;
        while (loop.isAlive()) {
            try {
                loop.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A ready pool entry waiting for a worker. */
    private record Ready(SelectorEntry entry, int ops) {}
}
