package org.rouse.selector.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import org.rouse.selector.spi.SelectorEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One select loop of a {@link NioSelectorEngine}: a thread ({@code rouse-selector-loop-N}) that owns one
 * {@link Selector}, applies the registration changes other threads queue for it, selects, and runs or hands off the
 * upcalls of its ready channels. With the hand-over on, the loop has two threads of that name: the one that selects
 * runs pool upcalls itself while the other stands by and takes the selecting over if one of them runs too long (the
 * take-over, the default), or it passes the selecting to the other before it runs one (the take-over off). The engine decides which entries belong to which loop (each {@link Attachment} names
 * its loop and says whether it is still attached) and where pool upcalls run ({@link Host#submit}).
 */
final class SelectLoop {

    /*
     * Implementation notes.
     *
     * Sources. Netty's NioEventLoop: wakeups coalesced on an atomic flag, and a selector rebuilt after 512 premature
     * returns in a row (io.netty.selectorAutoRebuildThreshold) to escape the epoll spin bug; java.nio.channels
     * (a channel may be registered with two selectors at once, which the rebuild relies on).
     *
     * Layout. Ownership: this loop's thread alone touches its Selector and keys (register, interestOps, cancel,
     * select). Each key's attachment is the engine's Attachment of its entry, so a selected key gives the entry and
     * whether it is still attached without a lookup. Other threads hand it work through `pending`, which the loop
     * runs before every select; the loop thread applies its own attach/update/detach at once. `overflow` (loop thread
     * only) holds ready pool entries a saturated pool refused.
     *
     * Algorithm. Pool dispatch: the loop zeroes the key's interest ops, then hands the upcall to the engine. The loop
     * never re-arms after a dispatch; the front calls update() on whichever engine is active by then. If the pool is
     * saturated the ready entry waits in `overflow` and the next finishing worker wakes this loop (afterUpcall) to
     * retry. Epoll spin bug: SpinDetector counts selects that return at once with nothing selected and no wakeup;
     * after 512 in a row the loop opens a new selector, registers every valid key's channel with it (same interest
     * ops and attachment), cancels the old keys, publishes the new selector in the volatile field and closes the old
     * one, logging a warning.
     *
     * Deregistration: SelectionKey.cancel() only marks a key; the channel stays registered (and cannot be put into
     * blocking mode) until the selector's next selection operation. A detach therefore cancels the key and then
     * flushes it with selectNow(): at once on the loop thread (as attachNow and deregisterAll already do), or, for a
     * detach queued by another thread, once after the batch of pending work, completing every waiter's future
     * after that one selectNow. Keys selectNow finds ready stay in the selected set for the next round.
     *
     * Hand-over (execute-produce-consume, as Jetty's AdaptiveExecutionStrategy with a reserved thread). With
     * `handover` on, the loop has two threads; the one in `holder` is the loop, the other is running a pool upcall or
     * parked in `standby`. When a batch of selected keys holds exactly one pool upcall, the holder runs it itself if the
     * other thread is parked in `standby` and nothing waits in `overflow` (a batch of several goes to the pool as
     * with the hand-over off: under load the pool's workers, watching their channels, serve most calls without the
     * loop, and measured at 16 busy connections running one of several here gained nothing): it takes the standby by CAS, publishes it in `holder` (a volatile write after its last access to
     * the loop's private state: the selected keys, `overflow`, `flushWaiters`, the spin detector), unparks it and runs
     * the upcall through the engine (Host.runHere: as a worker would, watch period included). The new holder reads
     * `holder` before it touches that state, so it sees every write before the hand-over. The old holder, when its
     * upcall returns, is not the holder any more: it parks in `standby` until the role comes back. So the call that
     * was found ready runs on the thread that found it, with warm caches and no wake-up on its path; the wake-up of the
     * standby happens beside it. A handler that blocks holds only its own thread: the other thread selects, and while
     * nobody is in `standby` every pool upcall goes to the pool, as with the hand-over off. From the upcall's thread
     * onLoop() is false (it is not the holder), so its re-arm is queued and wakes the loop like a worker's; it clears
     * an interrupt the handler left before it parks, as a pool worker does (else every park and select after it would
     * return at once). Its watch, if any, cannot be cut short for another channel's upcall (ConnectionWatcher): it
     * goes back to `standby`, not to the pool's backlog. Stopping: stop() waits for `closed`, which the thread that
     * holds the loop when it ends counts down after closing the selector; a standby whose CAS out of `standby` fails
     * has been taken by a hand-over and spins until the holder's write that follows it, so a stop racing with a
     * hand-over still leaves the loop to a live thread, which closes it. A handler still running on the other thread
     * then ends by itself; the engine's shutdown waits for it as for its workers and interrupts it after that
     * (awaitUpcall).
     *
     * Take-over (produce-consume with a watchdog; `takeoverAfterNanos` > 0, the default). Netty runs handlers on its
     * loop and a handler that blocks stalls every channel of that loop; Jetty's execute-produce-consume above never
     * stalls the loop but pays the standby's wake-up on every call. Here the holder runs each ready pool upcall of a
     * batch itself, in the batch's order, while the other thread is in `standby`: it disarms the key (interestOps(0),
     * which EPollSelectorImpl only queues; the re-arm that the upcall's end applies directly, on this thread, cancels
     * it before the next select, so the pair makes no epoll_ctl), sets `upcallOnLoop` to RUNNING with a new number,
     * and runs the upcall through the engine (dispatchSafely, as for an inline entry: no watch, the loop selects the channel again next).
     * The standby (standByWatching) looks every `takeoverAfterNanos` while upcalls run: if the same upcall has been
     * RUNNING since a look at least a period ago by the clock (so between one and two periods: it blocks, computes,
     * or its thread was preempted; an early return of a park never counts as a period) it CASes it to TAKEN, writes
     * `holder` and selects; the old holder's end CAS then fails, and it
     * touches nothing of the loop's any more: it waits for the taker's `holder` write, leaves the rest of its batch
     * (those keys are still armed, so the new holder selects them again, level-triggered) and parks as the standby
     * once the handler returns. While nobody stands by, ready pool upcalls go to the pool, as with the hand-over off.
     * Its channel then sends a stint of upcalls to the pool (Attachment.toPool: 16, doubled after each overrun that
     * follows, up to 65,536, halved by each upcall that ends on the loop), so a handler that blocks every time holds
     * the loop up about once per 65,536 calls, and one that was only preempted comes back soon. After a look that
     * found no new upcall the standby parks with no timeout (`standbyDormant`), and the holder's next upcall wakes it:
     * an idle loop makes no wake-ups, and a busy one makes one per period. During an upcall on the loop onLoop() is
     * false (another thread may take the loop at any moment), so attach, detach and loop tasks from the handler are
     * queued as from a worker; update() alone applies at once (interestOps is thread-safe, and the select that the
     * new holder starts after its `holder` write applies it), and queues it as well if the loop was taken meanwhile.
     * A handler that would wait for the loop (a deregistration's flush) first hands it to the standby itself
     * (leaveBeforeWaiting: CAS RUNNING to LEFT), as a hand-over would. When the loop stops, the standby takes over a
     * running upcall at once, so the loop closes while a handler still blocks; a standby that sees the stop looks at
     * the state once more before it ends, and the holder reads `stopped` after it sets RUNNING and hands the upcall
     * off instead if the loop stopped (Dekker), so no upcall starts on the loop with no standby left.
     *
     * Invariants.
     * 0. Exactly one thread holds the loop (`holder`) and only it touches the Selector's selection and this loop's
     *    private state. The holder changes by the holder's own write, which also takes the standby out of
     *    `standby`, so a thread is given the role at most once per park; or, during a pool upcall on the loop, by
     *    the thread that moved `upcallOnLoop` out of RUNNING (the standby's TAKEN, or the upcall's own LEFT): one CAS
     *    decides, and the holder's end CAS back to IDLE is the third contender, so the role never has two owners.
     * 1. Queued work and every selected key re-check membership (Attachment.attached, which the engine clears when it
     *    lets the entry go) when they run, so work queued, or readiness selected, before a detach or drain is skipped.
     * 2. Wakeup coalescing: `awake` is true except from just before the loop checks for pending work until select
     *    returns. wakeup() writes selector.wakeup() only if it flips `awake` from false to true, so at most one
     *    wakeup is written per select cycle and none while the loop is awake. No wakeup is lost (Dekker-style): the
     *    loop sets awake=false, then checks `pending`; a producer adds to `pending`, then reads `awake`; one of them
     *    sees the other.
     * 3. Across a rebuild wakeups stay correct: a producer writes one only after its CAS on `awake` succeeded, and
     *    the loop clears `awake` only after the new selector is published.
     *
     * 4. Dormant standby (Dekker): the holder sets RUNNING, then reads `standbyDormant`; the standby sets
     *    `standbyDormant`, then reads `upcallOnLoop`; one of them sees the other, so an upcall on the loop never runs
     *    without a standby that looks.
     *
     * Costs. A re-arm from another thread costs a queue insertion and at most one selector.wakeup() per select
     * cycle; one from the loop thread costs an interestOps call. A pool upcall on the loop (take-over) costs a
     * volatile write, a CAS and two interestOps calls, and no system call while the standby is awake. An idle loop is blocked in select: no polling
     * unless select.timeout.ms is set.
     */

    /** What a loop needs from its engine. */
    interface Host {

        /** The loop could not register the channel of {@code attachment}: forget it. */
        void registrationFailed(Attachment attachment);

        /**
         * Runs the upcall {@code attachment.entry.dispatch(readyOps)} on a worker, then calls {@link #afterUpcall()}.
         * Called by the loop thread of {@code attachment.loop}, just after seeing it attached.
         *
         * @throws RejectedExecutionException if every worker is busy and the queue is full
         */
        void submit(Attachment attachment, int readyOps);

        /**
         * Runs that upcall on the calling thread, as a worker would, then calls {@link #afterUpcall()}. Called by a
         * thread of {@code attachment.loop} that has just handed the loop to its other thread.
         */
        void runHere(Attachment attachment, int readyOps);
    }

    private static final Logger LOG = LoggerFactory.getLogger(SelectLoop.class);

    private final String name;
    private final int index;
    private final Host host;
    private final long selectTimeoutMs;
    /** The thread started first; it holds the loop at first. */
    private final Thread first;
    /** The second thread when the hand-over is on (see the notes), else null. */
    private final Thread second;

    /** The thread that is the loop now; written only by the holder as it hands over (volatile), read by anyone. */
    private volatile Thread holder;

    /** The other thread while it is parked, ready to take the loop, else null; set by that thread, CAS by the holder. */
    private final AtomicReference<Thread> standby = new AtomicReference<>();

    /** Counted down by the holder once it has closed the loop (closeLoop); stop() waits on it. */
    private final CountDownLatch closed = new CountDownLatch(1);

    /** Hand-overs of the loop to its other thread; holder writes. */
    private final AtomicLong handovers = new AtomicLong();

    /** With the hand-over on: how long a pool upcall may run on the holder before the standby takes over; 0 = off. */
    private final long takeoverAfterNanos;

    /**
     * The pool upcalls the holder runs itself (take-over on): the number started, shifted left by 2, with the state
     * of the last in the low bits (IDLE, RUNNING, TAKEN by the standby, LEFT by the upcall's thread). Set to RUNNING by
     * the holder; from RUNNING only by CAS: back to IDLE by the holder, to TAKEN by the standby, to LEFT by the
     * upcall's thread; the winner decides who holds the loop.
     */
    private final AtomicLong upcallOnLoop = new AtomicLong();

    /** The thread running a pool upcall while it holds the loop, else null; see onLoop(). Volatile, set by it. */
    private volatile Thread upcallThread;

    /** Whether the standby waits with no timeout (nothing ran on the loop for a period); set by it, CAS by the holder. */
    private final AtomicBoolean standbyDormant = new AtomicBoolean();

    /** Take-overs of the loop by its standby during a long upcall; standby writes. */
    private final AtomicLong takeovers = new AtomicLong();

    private static final long STATE_BITS = 3;
    // IDLE is 0: the number alone
    private static final long RUNNING = 1;
    private static final long TAKEN = 2;
    private static final long LEFT = 3;

    /** Replaced only by the loop thread when it rebuilds the selector (the epoll spin bug); read by any thread. */
    private volatile Selector selector;

    /** Work for the loop thread; any thread adds, the loop polls. */
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();

    /** False only while the loop is about to select or selecting; see the notes. CAS by wakeup, set by the loop. */
    private final AtomicBoolean awake = new AtomicBoolean(true);

    /** Set once by stop(); read by the loop. */
    private volatile boolean stopped;

    /** Whether ready entries wait in overflow; written by the loop, read by workers. */
    private volatile boolean overflowWaiting;

    /** Futures of queued detaches, completed after the flush that ends the batch of pending work; loop thread only. */
    private final ArrayDeque<CompletableFuture<Void>> flushWaiters = new ArrayDeque<>();

    /** Ready pool entries the saturated pool refused, with their ready ops; loop thread only. */
    private final ArrayDeque<Ready> overflow = new ArrayDeque<>();

    private final AtomicLong wakeupsWritten = new AtomicLong();
    /** Selects that ended by their timeout (no channel ready, nobody woke the loop); loop writes. */
    private final AtomicLong timedOutSelects = new AtomicLong();
    /** Selections that end a cycle of `awake` (select, or the selectNow when work is pending); loop writes. */
    private final AtomicLong selectCycles = new AtomicLong();
    /** Selectors replaced by a new one; loop writes. */
    private final AtomicLong rebuilds = new AtomicLong();
    /** From a re-arm requested on another thread to the loop applying it; shared with the engine (thread-safe). */
    private final Recorder rearmLatency;

    /** Loop thread only. */
    private final SpinDetector spinDetector = new SpinDetector(SpinDetector.DEFAULT_THRESHOLD);

    SelectLoop(
            String name,
            int index,
            long selectTimeoutMs,
            boolean handover,
            long takeoverAfterMicros,
            Recorder rearmLatency,
            Host host) {
        this.name = name + "/loop-" + index;
        this.takeoverAfterNanos = handover ? TimeUnit.MICROSECONDS.toNanos(takeoverAfterMicros) : 0;
        this.index = index;
        this.host = host;
        this.selectTimeoutMs = selectTimeoutMs;
        this.rearmLatency = rearmLatency;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        this.first = new Thread(this::run, "rouse-selector-loop-" + index);
        first.setDaemon(true);
        this.holder = first;
        if (handover) {
            this.second = new Thread(this::run, "rouse-selector-loop-" + index);
            second.setDaemon(true);
        } else {
            this.second = null;
        }
    }

    void start() {
        first.start();
        if (second != null) {
            second.start();
        }
    }

    /**
     * Whether the calling thread holds the loop and may touch its selector: not while it runs a pool upcall itself
     * (the standby may take the loop from it at any moment), but see {@link #update}.
     */
    boolean onLoop() {
        Thread me = Thread.currentThread();
        // upcallThread first: a taker writes `holder` before it clears upcallThread, so an upcall's thread that has
        // lost the loop never sees itself as holder with the field already cleared
        return me != upcallThread && me == holder;
    }

    /** This loop's position in its engine, from 0. */
    int index() {
        return index;
    }

    /** Registers the entry's channel: at once on the loop thread, else queued (the caller wakes the loop). */
    void attach(Attachment attachment) {
        if (onLoop()) {
            attachNow(attachment);
        } else {
            pending.add(() -> attachNow(attachment));
        }
    }

    /**
     * Applies the entry's interest operations: at once on the thread that holds the loop (also inside a pool upcall
     * it runs itself: interestOps is thread-safe, and the loop's next select applies it), else queued, waking the
     * loop if allowed. Decided here, on the {@code holder} read that decides the path, so an upcall's thread that
     * loses the loop just before never queues without a wakeup.
     *
     * @return whether it queued the change and woke the loop (a wakeup requested)
     */
    boolean update(SelectorEntry entry, boolean wakeAllowed) {
        Thread me = Thread.currentThread();
        if (me == holder) {
            updateNow(entry);
            if (holder == me) {
                return false;
            }
            // taken over during this upcall: the new holder may already block in select without this change
        }
        queueUpdate(entry, wakeAllowed);
        return wakeAllowed;
    }

    private void queueUpdate(SelectorEntry entry, boolean wake) {
        long requestedAt = System.nanoTime();
        pending.add(() -> {
            updateNow(entry);
            rearmLatency.recordValue(Math.max(0, System.nanoTime() - requestedAt));
        });
        if (wake) {
            wakeup();
        }
    }

    /**
     * Deregisters the entry's channel: cancels its key and flushes the cancellation with a selection operation, at
     * once on the loop thread, else queued (the caller wakes the loop).
     *
     * @return completed once the channel is no longer registered with this loop's selector
     */
    CompletableFuture<Void> detach(SelectorEntry entry) {
        CompletableFuture<Void> flushed = new CompletableFuture<>();
        if (onLoop()) {
            if (detachNow(entry)) {
                flush();
            }
            flushed.complete(null);
        } else {
            pending.add(() -> {
                detachNow(entry);
                flushWaiters.add(flushed); // runPending flushes once for the whole batch
            });
        }
        return flushed;
    }

    /** Queues {@code task} for the loop thread; the caller wakes the loop. */
    void enqueue(Runnable task) {
        pending.add(task);
    }

    /** Wakes the loop if it is blocked in (or about to enter) select; coalesced. Returns whether it wrote one. */
    boolean wakeup() {
        if (!awake.get() && awake.compareAndSet(false, true)) {
            wakeupsWritten.incrementAndGet();
            selector.wakeup();
            return true;
        }
        return false;
    }

    /** Called by a worker after an upcall this loop handed off: retries refused upcalls if any wait. */
    void afterUpcall() {
        if (overflowWaiting) {
            wakeup();
        }
    }

    /**
     * Deregisters every channel of this loop (they stay open) and forgets refused upcalls. Loop thread only (the
     * engine queues it).
     */
    void deregisterAll() {
        for (SelectionKey key : selector.keys()) {
            key.cancel();
        }
        try {
            selector.selectNow(); // deregisters the cancelled keys: the channels are free to join another selector
        } catch (IOException e) {
            LOG.warn("Selector {}: flushing cancelled keys failed", name, e);
        }
        selector.selectedKeys().clear();
        overflow.clear();
        overflowWaiting = false;
    }

    /**
     * Stops the loop thread and waits for it up to {@code timeoutMs}; tasks already queued still run. Idempotent.
     *
     * @return whether the thread ended in time (it ends by itself later if a callback holds it)
     */
    boolean stop(long timeoutMs) {
        stopped = true;
        selector.wakeup();
        Thread parked = standby.get();
        if (parked != null) {
            LockSupport.unpark(parked);
        }
        if (onLoop()) {
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        boolean interrupted = false;
        // the loop has ended once its holder has closed it: the other thread, if it is still in an upcall, ends by
        // itself later, like a worker (see awaitUpcall)
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return closed.getCount() == 0;
                }
                try {
                    return closed.await(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * After {@link #stop}: waits until {@code deadlineNanos} for the loop's other thread to finish the upcall it may be
     * running (it ends then), and interrupts it if it has not, as a pool's shutdownNow interrupts its workers.
     *
     * @return whether no upcall was left running on a loop thread
     */
    boolean awaitUpcall(long deadlineNanos) {
        if (second == null) {
            return true;
        }
        boolean interrupted = false;
        try {
            for (Thread thread : new Thread[] {first, second}) {
                long left;
                while (thread.isAlive()
                        && thread != holder
                        && thread != Thread.currentThread() // a shutdown from an upcall on this loop
                        && (left = deadlineNanos - System.nanoTime()) > 0) {
                    try {
                        TimeUnit.NANOSECONDS.timedJoin(thread, left);
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        boolean done = true;
        for (Thread thread : new Thread[] {first, second}) {
            if (thread.isAlive() && thread != holder && thread != Thread.currentThread()) {
                thread.interrupt();
                done = false;
            }
        }
        return done;
    }

    /** What the loop thread is doing now, for a warning when it does not answer: its innermost frames. */
    String whereStuck() {
        Thread thread = holder;
        StackTraceElement[] frames = thread.getStackTrace();
        StringBuilder where = new StringBuilder(thread.getName());
        for (int i = 0; i < Math.min(frames.length, 8); i++) {
            where.append("\n\tat ").append(frames[i]);
        }
        return where.toString();
    }

    long wakeupsWritten() {
        return wakeupsWritten.get();
    }

    long timedOutSelects() {
        return timedOutSelects.get();
    }

    long selectCycles() {
        return selectCycles.get();
    }

    long rebuilds() {
        return rebuilds.get();
    }

    long handovers() {
        return handovers.get();
    }

    /** Pool upcalls the loop's holder ran itself (take-over on). */
    long upcallsOnLoop() {
        return upcallOnLoop.get() >>> 2;
    }

    long takeovers() {
        return takeovers.get();
    }

    /**
     * The calling thread is about to wait for this loop (a deregistration's flush): if it holds the loop while it
     * runs a pool upcall, it hands the loop to the standby first, so the wait does not last until a take-over.
     */
    void leaveBeforeWaiting() {
        Thread me = Thread.currentThread();
        if (me != upcallThread || holder != me) {
            return;
        }
        long state = upcallOnLoop.get();
        Thread next = standby.get();
        if ((state & STATE_BITS) != RUNNING || next == null || !standby.compareAndSet(next, null)) {
            return;
        }
        if (!upcallOnLoop.compareAndSet(state, (state & ~STATE_BITS) | LEFT)) {
            return; // taken over meanwhile: the standby holds the loop now
        }
        handovers.incrementAndGet();
        holder = next; // publishes the loop's private state to it, as a hand-over does
        LockSupport.unpark(next);
    }

    /** Whether the loop's other thread is parked, ready to take the loop (a hand-over is possible now). */
    boolean standbyParked() {
        return standby.get() != null;
    }

    /** Whether the loop is about to block or blocked in select (a wakeup would be written). */
    boolean isSelecting() {
        return !awake.get();
    }

    /** Rebuilds the selector on the loop thread as if it had spun (tests: the bug cannot be provoked). */
    void forceRebuild() {
        pending.add(this::rebuildSelector);
        wakeup();
    }

    private void run() {
        Thread me = Thread.currentThread();
        try {
            while (!stopped) {
                if (holder != me) {
                    awaitLoop(me);
                    continue;
                }
                try {
                    runPending();
                    retryOverflow();
                    if (stopped) {
                        break;
                    }
                    if (selector.selectedKeys().isEmpty()) {
                        select();
                    }
                    processSelected();
                } catch (ClosedSelectorException e) {
                    break;
                } catch (Throwable t) { // the loop must survive anything a single iteration meets
                    LOG.error("Selector {}: loop iteration failed", name, t);
                }
            }
        } finally {
            if (holder == me) {
                closeLoop();
            }
        }
    }

    /** Parks {@code me}, not the holder, as the standby until the holder hands it the loop or the loop stops. */
    private void awaitLoop(Thread me) {
        Thread.interrupted(); // an interrupt a handler left would make every park return at once
        standby.set(me);
        if (takeoverAfterNanos > 0) {
            standByWatching(me);
        } else {
            while (holder != me && !stopped) {
                LockSupport.park(this);
            }
        }
        if (!standby.compareAndSet(me, null)) {
            // A hand-over took this thread out of `standby` and writes `holder` next, with nothing in between that
            // can block: wait for that write, or a stop racing with it would leave the loop to nobody.
            while (holder != me) {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * The standby's wait with the take-over on: while pool upcalls run on the holder it looks every period, and takes
     * the loop if one upcall has run since its last look (or the loop stops during one); after a period with none it
     * parks until the holder starts one. Returns once it holds the loop or the loop stopped.
     */
    private void standByWatching(Thread me) {
        long seen = -1; // the state at the last look that changed; -1: none yet
        long seenAt = 0; // when that look was (System.nanoTime), so an early return of a park never counts a period
        while (holder != me) {
            long state = upcallOnLoop.get();
            boolean running = (state & STATE_BITS) == RUNNING;
            long now = System.nanoTime();
            if (running && (stopped || (state == seen && now - seenAt >= takeoverAfterNanos))) {
                if (upcallOnLoop.compareAndSet(state, (state & ~STATE_BITS) | TAKEN)) {
                    takeovers.incrementAndGet();
                    standby.set(null);
                    holder = me; // the old holder, still in its upcall, touches nothing of the loop's from here
                    break;
                }
                continue; // it ended, or its thread left the loop to this one
            }
            if (stopped) {
                // Dekker with runOnLoop, which sets RUNNING and then reads `stopped`: look once more, or an upcall
                // that started just now would block with no standby to close the loop
                if ((upcallOnLoop.get() & STATE_BITS) == RUNNING) {
                    continue;
                }
                return;
            }
            if (state != seen) {
                seen = state;
                seenAt = now;
                LockSupport.parkNanos(this, takeoverAfterNanos);
                continue;
            }
            long waited = now - seenAt;
            if (running || waited < takeoverAfterNanos) {
                LockSupport.parkNanos(this, takeoverAfterNanos - waited);
                continue;
            }
            // a whole period with no new upcall; Dekker: runOnLoop sets RUNNING, then reads this flag
            standbyDormant.set(true);
            if (upcallOnLoop.get() == state && holder != me && !stopped) {
                LockSupport.park(this);
            }
            standbyDormant.set(false);
            seen = -1;
        }
        upcallThread = null; // the old holder's, if it lost the loop during an upcall; onLoop() reads it first
    }

    /** The holder's last act once stopped. */
    private void closeLoop() {
        runPending(); // tasks queued before the stop still run, and waiters are released
        for (SelectionKey key : selector.keys()) {
            key.cancel();
        }
        try {
            selector.close();
        } catch (IOException e) {
            LOG.debug("Closing the selector of {} failed", name, e);
        }
        Thread parked = standby.get();
        if (parked != null) {
            LockSupport.unpark(parked); // it may have parked after stop() unparked it
        }
        closed.countDown();
    }

    private void select() throws IOException {
        awake.set(false);
        if (!pending.isEmpty() || stopped) {
            awake.set(true);
            // a cycle too: a wakeup written while `awake` was false is consumed by this selectNow
            selectCycles.incrementAndGet();
            selector.selectNow();
            return;
        }
        long timeout = selectTimeoutMs;
        long start = System.nanoTime();
        int ready = timeout == 0 ? selector.select() : selector.select(timeout);
        boolean woken = awake.getAndSet(true);
        selectCycles.incrementAndGet();
        if (ready == 0 && !woken && timeout != 0) {
            timedOutSelects.incrementAndGet();
        }
        if (spinDetector.spun(ready, woken, System.nanoTime() - start, timeout)) {
            LOG.warn(
                    "Selector {}: select returned {} times in a row with nothing ready and nobody waking it"
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
            LOG.warn("Selector {}: cannot open a new selector; keeping the old one", name, e);
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
                if (attachment instanceof Attachment attached && attached.attached) {
                    attached.entry.engineSlot(movedKey);
                }
                key.cancel();
                moved++;
            } catch (IOException | RuntimeException e) { // a channel closed meanwhile: nothing to move
                LOG.debug("Selector {}: not moving {}: {}", name, key.channel(), e.toString());
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
        LOG.warn("Selector {}: rebuilt its selector, moving {} channels", name, moved);
    }

    private void runPending() {
        // bounded, so a task that keeps re-queueing itself cannot starve the selector
        for (int budget = pending.size(); budget > 0; budget--) {
            Runnable work = pending.poll();
            if (work == null) {
                break;
            }
            try {
                work.run();
            } catch (Throwable t) { // a failing loop task must not stop the loop
                LOG.warn("Selector {}: loop task failed", name, t);
            }
        }
        if (!flushWaiters.isEmpty()) {
            flush();
            for (CompletableFuture<Void> waiter; (waiter = flushWaiters.poll()) != null; ) {
                waiter.complete(null);
            }
        }
    }

    /** Deregisters cancelled keys now (a selection operation); ready keys wait in the selected set. */
    private void flush() {
        try {
            selector.selectNow();
        } catch (IOException | ClosedSelectorException e) {
            LOG.debug("Selector {}: flushing cancelled keys failed", name, e);
        }
    }

    private void processSelected() {
        Set<SelectionKey> selected = selector.selectedKeys();
        SelectionKey[] keys = selected.toArray(new SelectionKey[0]);
        selected.clear(); // a flush in attachNow may select more while we dispatch: they wait for the next round
        Attachment last = null; // the batch's last pool upcall so far: if it is the only one, it may run here
        int lastOps = 0;
        int poolUpcalls = 0;
        for (SelectionKey key : keys) {
            Attachment attachment = (Attachment) key.attachment();
            int ready;
            try {
                ready = key.readyOps() & key.interestOps();
            } catch (CancelledKeyException e) {
                continue;
            }
            if (ready == 0) {
                continue;
            }
            if (!attachment.attached) {
                key.cancel(); // detached or drained meanwhile
                continue;
            }
            SelectorEntry entry = attachment.entry;
            if (entry.inline()) {
                dispatchSafely(entry, ready);
            } else {
                try {
                    key.interestOps(0); // not selected again until the front re-arms it after the upcall
                } catch (CancelledKeyException e) {
                    continue;
                }
                if (takeoverAfterNanos > 0) {
                    if (attachment.toPool() || standby.get() == null || !overflow.isEmpty() || stopped) {
                        handOff(attachment, ready);
                    } else if (!runOnLoop(attachment, ready)) {
                        return; // the loop was taken: the rest of the batch stays armed, and its new holder selects it
                    }
                    continue;
                }
                if (second == null) {
                    handOff(attachment, ready);
                    continue;
                }
                if (last != null) {
                    handOff(last, lastOps);
                }
                poolUpcalls++;
                last = attachment;
                lastOps = ready;
            }
        }
        if (last != null) {
            if (poolUpcalls == 1) {
                runHereOrHandOff(last, lastOps);
            } else {
                handOff(last, lastOps);
            }
        }
    }

    /**
     * A batch's only pool upcall: run on this thread after handing the loop to the standby, if it is parked and no
     * refused upcall waits, else handed off (see "Hand-over"). After a hand-over this thread touches nothing of the
     * loop's any more.
     */
    private void runHereOrHandOff(Attachment attachment, int ops) {
        Thread next = standby.get();
        if (next == null || !overflow.isEmpty() || stopped || !standby.compareAndSet(next, null)) {
            handOff(attachment, ops);
            return;
        }
        handovers.incrementAndGet();
        holder = next; // publishes this loop's private state to it (see the notes)
        LockSupport.unpark(next);
        host.runHere(attachment, ops);
        Thread.interrupted(); // as a pool worker does: an interrupt meant for the handler must not end later parks
    }

    /**
     * A pool upcall run by the holder while the standby watches (see "Take-over"). Returns false if the loop was taken
     * from this thread meanwhile; it then touches nothing of the loop's any more.
     */
    private boolean runOnLoop(Attachment attachment, int ops) {
        Thread me = Thread.currentThread();
        long running = (((upcallOnLoop.get() >>> 2) + 1) << 2) | RUNNING;
        upcallThread = me;
        upcallOnLoop.set(running);
        if (standbyDormant.get() && standbyDormant.compareAndSet(true, false)) {
            Thread watcher = standby.get();
            if (watcher != null) {
                LockSupport.unpark(watcher);
            }
        }
        if (stopped && upcallOnLoop.compareAndSet(running, running & ~STATE_BITS)) {
            // the standby may have seen the stop before RUNNING and ended (Dekker with standByWatching)
            upcallThread = null;
            handOff(attachment, ops);
            return true;
        }
        dispatchSafely(attachment.entry, ops); // no watch after it: this thread selects the channel again next
        Thread.interrupted(); // as a pool worker does: an interrupt meant for the handler must not end later selects
        if (upcallOnLoop.compareAndSet(running, running & ~STATE_BITS)) { // IDLE
            upcallThread = null;
            attachment.ranOnLoop();
            return true;
        }
        if ((upcallOnLoop.get() & STATE_BITS) == TAKEN) {
            attachment.overranOnLoop = true; // its next upcalls go to the pool (Attachment.toPool)
        }
        while (holder == me) {
            Thread.onSpinWait(); // a taker writes `holder` right after its CAS, with nothing in between that blocks
        }
        return false;
    }

    private void handOff(Attachment attachment, int ops) {
        if (!overflow.isEmpty()) {
            overflow.add(new Ready(attachment, ops)); // keep order behind earlier refused upcalls
            return;
        }
        try {
            host.submit(attachment, ops);
        } catch (RejectedExecutionException saturated) {
            overflow.add(new Ready(attachment, ops));
            overflowWaiting = true;
        }
    }

    private void retryOverflow() {
        while (!overflow.isEmpty()) {
            Ready ready = overflow.peek();
            if (!ready.attachment.attached) {
                overflow.poll();
                continue;
            }
            try {
                host.submit(ready.attachment, ready.ops);
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
        } catch (Throwable t) { // dispatch must not throw; if it does, it must not kill the loop
            LOG.error("Selector {}: dispatch of {} threw", name, entry, t);
        }
    }

    private void attachNow(Attachment attachment) {
        if (!attachment.attached) {
            return; // detached or drained before the loop got to it
        }
        SelectorEntry entry = attachment.entry;
        SelectableChannel channel = entry.channel();
        try {
            SelectionKey key;
            try {
                key = channel.register(selector, entry.interestOps(), attachment);
            } catch (CancelledKeyException staleKey) {
                selector.selectNow(); // a cancelled key of this channel is still registered: flush it
                key = channel.register(selector, entry.interestOps(), attachment);
            }
            entry.engineSlot(key);
        } catch (IOException | RuntimeException e) {
            host.registrationFailed(attachment);
            LOG.warn("Selector {}: cannot register {}: {}", name, channel, e.toString());
        }
    }

    private void updateNow(SelectorEntry entry) {
        SelectionKey key = entry.channel().keyFor(selector);
        if (key != null
                && key.attachment() instanceof Attachment attachment
                && attachment.entry == entry
                && attachment.attached) {
            try {
                key.interestOps(entry.interestOps());
            } catch (CancelledKeyException e) {
                // the channel was closed; nothing to arm
            }
        }
    }

    /** Cancels the entry's key; returns whether there was one to cancel. */
    private boolean detachNow(SelectorEntry entry) {
        SelectionKey key = entry.channel().keyFor(selector);
        if (key != null && key.attachment() instanceof Attachment attachment && attachment.entry == entry) {
            key.cancel();
            return true;
        }
        return false;
    }

    @Override
    public String toString() {
        return name;
    }

    /** A ready pool entry waiting for a worker. */
    private record Ready(Attachment attachment, int ops) {}
}
