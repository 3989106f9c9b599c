package org.rouse.selector.internal;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one channel on a worker thread for a short period after an upcall: omniORB's {@code connectionWatchPeriod}.
 * When the peer of a sequence of calls sends the next one within the period, the worker that just answered runs the
 * next upcall itself, instead of re-arming the channel in the loop (a queued change and a wakeup) and the loop handing
 * the next upcall to a worker (another wakeup).
 */
final class ConnectionWatcher {

    /*
     * Implementation notes.
     *
     * Sources. omniORB's connectionWatchPeriod (a thread that has answered a call watches its connection for a while
     * before handing it back to the select thread); java.nio.channels.SelectableChannel (a channel may be registered
     * with several selectors at once); Selector.select(long), whose timeout is in whole milliseconds.
     *
     * Layout. `active`: the watches in progress, each a Watch with its worker's private selector and its `cut` flag.
     * `spare`: private selectors not in use (one per concurrently watching worker at most), closed by close(); one
     * returned after close() is closed at once. Session: a worker's borrowed selector and, after a hit, its channel's
     * key; confined to that worker, kept across the watches of one task and ended by end().
     *
     * Algorithm. A watch registers the channel with the session's selector (the loop's key stays at interest 0
     * meanwhile, so the loop does not select it) and waits up to the period: a period of at least one millisecond
     * blocks in select(ms), rounded up to whole milliseconds (select returns at once if the channel is already ready,
     * so a call that has already arrived is found without reading anything); a shorter one polls selectNow() with
     * Thread.onSpinWait(). After a hit the key stays registered, so a chain of calls on one connection registers it
     * once.
     *
     * Watching workers are soft-idle capacity. A watch is visible in `active` from begin(), before the engine decides
     * whether to wait at all. When the loop hands off an upcall and no worker is idle, the engine cuts one watch short
     * (cutOneShort: claim the watch's `cut` flag by CAS, then wake its private selector) and queues the upcall without
     * starting a thread. The watching worker claims the same flag as it finishes; if it loses, it reports no
     * readiness even if its channel became ready, hands the channel back to the loop and takes the queued upcall. Only
     * the short window between a handler returning and its watch beginning can still leave the upcall queued with no
     * watch to cut; it then waits for a busy worker, and gets a new thread only after the pool's grace period.
     *
     * Invariants.
     * 1. A watch's `cut` flag is claimed exactly once, by a cut (cutOneShort, cutAll) or by its worker finishing; so
     *    a cut never relies on a worker that goes on to serve its own channel.
     * 2. Unless its last watch was a hit, a Session holds no key: after a miss, a cut and end(), the key is cancelled
     *    and flushed with selectNow(), so the channel keeps no registration with a private selector (a lingering key
     *    would delay the channel's close).
     *
     * Costs. A hit costs the worker one select and the loop nothing (no queued change, no wakeup); a chain of hits
     * costs one registration. A miss costs up to the period of the worker's time, blocked, or spinning for periods
     * under 1 ms, then a cancel and a selectNow().
     */

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionWatcher.class);

    private static final long NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final long periodNanos;

    /** Watches in progress, so one can be cut short; each watching worker adds and removes its own. */
    private final ConcurrentLinkedQueue<Watch> active = new ConcurrentLinkedQueue<>();

    /** Private selectors not in use; workers poll and add. */
    private final ConcurrentLinkedQueue<Selector> spare = new ConcurrentLinkedQueue<>();

    /** Set once by close(); read by workers returning a selector. */
    private volatile boolean closed;

    /** Watches that found the channel ready (the worker ran the next upcall); any worker increments. */
    private final AtomicLong hits = new AtomicLong();

    /** Watches that ended with the channel not ready (handed back to the loop); any worker increments. */
    private final AtomicLong misses = new AtomicLong();

    /** Watches cut short for another channel's upcall; any thread increments. */
    private final AtomicLong cutShort = new AtomicLong();

    ConnectionWatcher(long periodMicros) {
        this.periodNanos = TimeUnit.MICROSECONDS.toNanos(periodMicros);
    }

    /** The watch period in nanoseconds (0 when watching is off). */
    long periodNanos() {
        return periodNanos;
    }

    /** Whether watching is on at all. */
    boolean enabled() {
        return periodNanos > 0;
    }

    /**
     * Starts a watch: from now on {@link #cutOneShort()} may cut it short if it is {@code cuttable}, which makes the
     * caller free for another upcall as soon as it returns (a loop thread after a hand-over is not: it goes back to
     * its loop, not to the pool). {@link #cutAll()} cuts every watch. Follow with {@link #await} or {@link #abandon}.
     *
     * @return the watch, or {@code null} if no selector could be opened (then do not watch)
     */
    Watch begin(Session session, boolean cuttable) {
        if (session.selector == null) {
            session.selector = borrow();
            if (session.selector == null) {
                return null;
            }
        }
        Watch watch = new Watch(session.selector, cuttable);
        active.add(watch);
        return watch;
    }

    /** Ends a watch that was begun but will not wait (its worker goes back to the pool anyway). */
    void abandon(Watch watch) {
        active.remove(watch);
    }

    /**
     * Waits up to the period for {@code channel} to become ready for one of {@code interestOps}, then ends the watch.
     * After a hit the channel stays registered with the session's selector, so the next watch of the same channel
     * costs no registration; after a miss it is deregistered at once.
     *
     * @return the ready operations, or 0 if none became ready, the channel cannot be watched, or the watch was cut
     *     short
     */
    int await(Watch watch, Session session, SelectableChannel channel, int interestOps) {
        int ready = 0;
        try {
            SelectionKey key = session.key;
            if (key == null || key.channel() != channel || !key.isValid()) {
                deregister(session);
                key = channel.register(session.selector, interestOps);
                session.key = key;
            } else if (key.interestOps() != interestOps) {
                key.interestOps(interestOps);
            }
            ready = awaitReady(watch, key, System.nanoTime() + periodNanos);
        } catch (ClosedChannelException | CancelledKeyException | IllegalBlockingModeException e) {
            ready = 0; // closed or changed meanwhile: the loop's re-arm path sorts it out
        } catch (IOException e) {
            LOG.debug("Watching {} failed", channel, e);
            ready = 0;
        } finally {
            active.remove(watch);
        }
        if (!watch.cut.compareAndSet(false, true)) {
            watch.cutShort = true;
            ready = 0; // cut short: this worker promised to take another upcall, so it hands its channel back
        }
        if (ready == 0) {
            deregister(session); // handed back to the loop: no registration may linger (it would delay a close)
        }
        (ready != 0 ? hits : misses).incrementAndGet();
        return ready;
    }

    /** Ends a worker's session: deregisters its channel, if any, and returns the selector for reuse. */
    void end(Session session) {
        if (session.selector == null) {
            return;
        }
        deregister(session);
        Selector selector = session.selector;
        session.selector = null;
        spare.add(selector);
        if (closed && spare.remove(selector)) {
            closeQuietly(selector);
        }
    }

    /**
     * Deregisters the session's channel from its selector now (the registration ended during the worker's own
     * upcall). Worker only: the session's selector is confined to it.
     */
    void release(Session session) {
        if (session.selector != null) {
            deregister(session);
        }
    }

    private void deregister(Session session) {
        SelectionKey key = session.key;
        if (key == null) {
            return;
        }
        session.key = null;
        key.cancel();
        try {
            session.selector.selectNow(); // deregisters the channel from this selector now
        } catch (IOException e) {
            LOG.debug("Flushing a watch selector failed", e);
        }
        session.selector.selectedKeys().clear();
    }

    /** Watches in progress now. */
    int watching() {
        return active.size();
    }

    /**
     * Cuts one watch in progress short (its worker hands its channel back to the loop and becomes free for other
     * work), so that an upcall of another channel need not start a thread.
     *
     * @return whether a watch was cut short
     */
    boolean cutOneShort() {
        for (Watch watch : active) {
            if (watch.cuttable && watch.cut.compareAndSet(false, true)) {
                watch.selector.wakeup();
                cutShort.incrementAndGet();
                return true;
            }
        }
        return false;
    }

    long cutShort() {
        return cutShort.get();
    }

    /** Cuts every watch in progress short (the engine is draining or stopping: nobody should wait for them). */
    void cutAll() {
        for (Watch watch : active) {
            if (watch.cut.compareAndSet(false, true)) {
                watch.selector.wakeup();
            }
        }
    }

    long hits() {
        return hits.get();
    }

    long misses() {
        return misses.get();
    }

    /** Closes the spare selectors; later returns close theirs. */
    void close() {
        closed = true;
        for (Selector selector; (selector = spare.poll()) != null; ) {
            closeQuietly(selector);
        }
    }

    private int awaitReady(Watch watch, SelectionKey key, long deadline) throws IOException {
        Selector selector = watch.selector;
        boolean poll = periodNanos < NANOS_PER_MILLI;
        while (true) {
            long left = deadline - System.nanoTime();
            int selected = poll || left <= 0
                    ? selector.selectNow()
                    : selector.select((left + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI); // whole ms, rounded up
            if (selected > 0 || !selector.selectedKeys().isEmpty()) {
                int ready = key.readyOps();
                selector.selectedKeys().clear();
                return ready;
            }
            if (deadline - System.nanoTime() <= 0
                    || watch.cut.get()
                    || Thread.currentThread().isInterrupted()) {
                return 0;
            }
            if (poll) {
                Thread.onSpinWait();
            }
        }
    }

    private Selector borrow() {
        Selector selector = spare.poll();
        if (selector != null) {
            return selector;
        }
        try {
            return Selector.open();
        } catch (IOException e) {
            LOG.warn("Cannot open a selector to watch a connection; handing it back to the loop", e);
            return null;
        }
    }

    /** A worker's private selector and the channel registered with it, kept across the watches of one task. */
    static final class Session {
        /** Borrowed at the first watch, returned by end(); confined to the worker. */
        Selector selector;

        /** The watched channel's key after a hit, else null; confined to the worker. */
        SelectionKey key;
    }

    /** One watch in progress: its private selector and whether it was cut short. */
    static final class Watch {
        final Selector selector;

        /**
         * Claimed by CAS, once: by cutOneShort (the watch is cut short) or by the watching worker as it finishes
         * (the watch's result stands). Whoever loses knows the other won, so a cut is never promised by a worker that
         * goes on to serve its own channel.
         */
        final AtomicBoolean cut = new AtomicBoolean();

        /** Whether {@link #cutOneShort()} may cut it (a worker's watch), or only {@link #cutAll()}. */
        final boolean cuttable;

        /** Whether await found it cut short; written and read by the watching worker only. */
        boolean cutShort;

        Watch(Selector selector, boolean cuttable) {
            this.selector = selector;
            this.cuttable = cuttable;
        }

        /** After {@link #await}: whether the watch ended because it was cut short (not by a hit or the period). */
        boolean wasCutShort() {
            return cutShort;
        }
    }

    private static void closeQuietly(Selector selector) {
        try {
            selector.close();
        } catch (IOException e) {
            LOG.debug("Closing a watch selector failed", e);
        }
    }
}
