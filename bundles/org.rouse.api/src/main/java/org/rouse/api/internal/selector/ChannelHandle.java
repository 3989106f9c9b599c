package org.rouse.api.internal.selector;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.rouse.api.internal.events.RouseEvents;
import org.rouse.selector.ChannelHandler;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;
import org.rouse.selector.spi.SelectorEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One registered channel: the {@link ChannelRegistration} a consumer holds, and (through {@link #entry()}) the
 * {@link SelectorEntry} engines see. All state lives here, in the API bundle, so an engine swap never invalidates
 * it.
 */
public final class ChannelHandle implements ChannelRegistration {

    /*
     * Implementation notes.
     *
     * Sources. omniORB's missing post-upcall wakeup (docs/selector.md): after an upcall the channel is re-armed and the
     * loop woken at once.
     *
     * Layout. Two objects, one state: ChannelRegistration.interestOps() (what the consumer asked for) and
     * SelectorEntry.interestOps() (what to select now: zero while suspended or during an upcall) have the same
     * signature, so the engine-facing view is the inner EngineEntry. `inUpcall` says whether a handler runs; `state` is
     * VALID, CANCELLED or CLOSED.
     *
     * Algorithm. Upcalls: EngineEntry.dispatch claims `inUpcall` by CAS. A second dispatch while one runs (possible for
     * a moment when the channel is known to two engines during a swap, or when an update re-armed a key between the
     * engine zeroing it and the worker starting) returns at once: readiness is level-triggered and the running upcall
     * re-arms when it ends. After the handler returns, the flag is cleared and the entry is updated in whichever engine
     * is active at that moment, which re-arms the key and wakes that engine's loop.
     *
     * Life cycle: state goes VALID -> CANCELLED or VALID -> CLOSED (or CANCELLED -> CLOSED, which only closes the
     * channel) by CAS; the winner detaches the entry, releases the view's slot and the channel claim, and (for VALID ->
     * CLOSED) closes the channel and calls onClosed once.
     *
     * Deregistration (the contract of ChannelRegistration.cancel): the winner asks the core to deregister the entry
     * from the engines that may hold it (SelectorEngine.deregister). The engine waits, where waiting cannot
     * deadlock, until the key is cancelled and flushed, and returns a stage for the rest (an upcall on another
     * thread, a loop that may not be waited for); `deregistered` completes with it. The state is written before
     * the engine is asked, so an engine that checks the entry's operations after registering a channel anywhere
     * (the watch selector) sees zero and lets go by itself.
     *
     * Invariants.
     * 1. At most one handler of a channel runs at a time (the CAS on `inUpcall`).
     * 2. Each end of life (cancel, close) is performed once, by the winner of the CAS on `state`.
     */

    private static final Logger LOG = LoggerFactory.getLogger(ChannelHandle.class);

    private static final int VALID = 0;
    private static final int CANCELLED = 1;
    private static final int CLOSED = 2;

    private final BundleSelectorView view;
    private final SelectorFrontCore core;
    private final SelectableChannel channel;
    private final ChannelHandler handler;
    private final Dispatch mode;
    private final EngineEntry entry = new EngineEntry();

    /** The consumer's interest operations; written by any thread through interestOps(int). */
    private volatile int interest;

    /** Suspension; written by any thread through suspend()/resume(). */
    private volatile boolean suspended;

    /** Whether a handler call is running; claimed by CAS in core, cleared by the same core. */
    private final AtomicBoolean inUpcall = new AtomicBoolean();

    /** VALID, CANCELLED or CLOSED; changed only by CAS. */
    private final AtomicInteger state = new AtomicInteger(VALID);

    /**
     * Completed once the registration has ended and no selector of the service holds the channel; completed by
     * whichever thread completes the engine's deregistration stage (CompletableFuture orders it).
     */
    private final CompletableFuture<Void> deregistered = new CompletableFuture<>();

    /** The slot of the engine the entry is attached to; written by that engine. */
    private volatile Object engineSlot;

    /**
     * Swaps whose drain returned this registration's entry; incremented by {@link SelectorFrontCore#swapTo} under
     * its swap lock, read by {@link SelectorFrontCore#attach} before it attaches and again under that lock.
     */
    final AtomicInteger swapDrains = new AtomicInteger();

    ChannelHandle(
            BundleSelectorView view,
            SelectableChannel channel,
            int interestOps,
            ChannelHandler handler,
            Dispatch mode) {
        this.view = view;
        this.core = view.core();
        this.channel = channel;
        this.interest = interestOps;
        this.handler = handler;
        this.mode = mode;
    }

    /** What engines see of this registration. */
    public SelectorEntry entry() {
        return entry;
    }

    @Override
    public SelectableChannel channel() {
        return channel;
    }

    @Override
    public Dispatch dispatch() {
        return mode;
    }

    @Override
    public int interestOps() {
        return interest;
    }

    @Override
    public void interestOps(int ops) {
        checkOps(channel, ops, "ops");
        if (state.get() != VALID) {
            throw new IllegalStateException("registration of " + channel + " has ended");
        }
        interest = ops;
        if (!inUpcall.get()) {
            core.update(this); // during an upcall the re-arm at its end applies the new operations
        }
    }

    @Override
    public void suspend() {
        if (!suspended) {
            suspended = true;
            core.update(this);
        }
    }

    @Override
    public void resume() {
        if (suspended) {
            suspended = false;
            core.update(this);
        }
    }

    @Override
    public boolean isSuspended() {
        return suspended;
    }

    @Override
    public boolean isValid() {
        return state.get() == VALID;
    }

    @Override
    public void cancel() {
        if (state.compareAndSet(VALID, CANCELLED)) {
            end();
        }
    }

    @Override
    public CompletionStage<Void> deregister() {
        cancel();
        return deregistered.minimalCompletionStage();
    }

    @Override
    public void close() {
        if (state.compareAndSet(VALID, CLOSED)) {
            end();
            closeChannel();
            notifyClosed(null);
        } else if (state.compareAndSet(CANCELLED, CLOSED)) {
            closeChannel();
        }
    }

    @Override
    public String toString() {
        return "ChannelRegistration[" + channel + ", " + mode + ", ops=" + describe(interest)
                + (suspended ? ", suspended" : "") + (isValid() ? "" : ", ended") + "]";
    }

    /** Ends the registration because its handler threw; returns whether this call ended it. */
    private boolean fail(Throwable cause) {
        if (!state.compareAndSet(VALID, CLOSED)) {
            return false;
        }
        LOG.warn("Handler of {} (bundle {}) threw; closing the channel", channel, view.owner(), cause);
        end();
        closeChannel();
        notifyClosed(cause);
        return true;
    }

    /** Called once, by the thread that ended the registration: deregisters the channel and frees its slot. */
    private void end() {
        CompletionStage<Void> left = core.detach(this); // waits for the flush where it safely can
        view.forget(this);
        left.whenComplete((ignored, failure) -> deregistered.complete(null));
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("Closing {} failed", channel, e);
        }
    }

    private void notifyClosed(Throwable cause) {
        try {
            handler.onClosed(this, cause);
        } catch (Throwable t) { // contract says it must not throw; one that does must not hurt the caller
            LOG.warn("onClosed of {} threw", channel, t);
        }
    }

    /** Throws {@link IllegalArgumentException} naming {@code argument} unless {@code ops} is valid for the channel. */
    static void checkOps(SelectableChannel channel, int ops, String argument) {
        int invalid = ops & ~channel.validOps();
        if (invalid != 0) {
            throw new IllegalArgumentException(argument + " " + describe(ops) + " contains " + describe(invalid)
                    + ", not valid for " + channel.getClass().getSimpleName() + " (valid: "
                    + describe(channel.validOps()) + ")");
        }
    }

    /** Names interest operations, e.g. {@code OP_READ|OP_WRITE}. */
    static String describe(int ops) {
        List<String> names = new ArrayList<>(4);
        if ((ops & SelectionKey.OP_ACCEPT) != 0) {
            names.add("OP_ACCEPT");
        }
        if ((ops & SelectionKey.OP_CONNECT) != 0) {
            names.add("OP_CONNECT");
        }
        if ((ops & SelectionKey.OP_READ) != 0) {
            names.add("OP_READ");
        }
        if ((ops & SelectionKey.OP_WRITE) != 0) {
            names.add("OP_WRITE");
        }
        int other = ops
                & ~(SelectionKey.OP_ACCEPT | SelectionKey.OP_CONNECT | SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        if (other != 0) {
            names.add("0x" + Integer.toHexString(other));
        }
        return names.isEmpty() ? "0" : String.join("|", names);
    }

    /** The engine-facing view of the registration. */
    final class EngineEntry implements SelectorEntry {

        ChannelHandle handle() {
            return ChannelHandle.this;
        }

        @Override
        public SelectableChannel channel() {
            return channel;
        }

        @Override
        public int interestOps() {
            return state.get() != VALID || suspended || inUpcall.get() ? 0 : interest;
        }

        @Override
        public boolean inline() {
            return mode == Dispatch.INLINE;
        }

        @Override
        public void dispatch(int readyOps) {
            if (!inUpcall.compareAndSet(false, true)) {
                return; // an upcall of this channel is running; it re-arms when it returns
            }
            try {
                if (state.get() == VALID) {
                    runHandler(readyOps);
                }
            } finally {
                inUpcall.set(false);
                if (state.get() == VALID) {
                    core.update(ChannelHandle.this); // re-arm in the engine active now, and wake it
                }
            }
        }

        private void runHandler(int readyOps) {
            long start = System.nanoTime();
            boolean failed = false;
            try {
                handler.onReady(ChannelHandle.this, readyOps);
            } catch (Throwable t) { // any failure of consumer code ends only its own registration
                failed = fail(t);
                if (!failed) {
                    LOG.debug("Handler of {} threw after its registration ended", channel, t);
                }
            } finally {
                view.upcallFinished(System.nanoTime() - start, failed);
                RouseEvents.slowUpcall(view.owner(), channel, start);
            }
        }

        @Override
        public Object engineSlot() {
            return engineSlot;
        }

        @Override
        public void engineSlot(Object slot) {
            engineSlot = slot;
        }

        @Override
        public String toString() {
            return "SelectorEntry[" + channel + "]";
        }
    }
}
