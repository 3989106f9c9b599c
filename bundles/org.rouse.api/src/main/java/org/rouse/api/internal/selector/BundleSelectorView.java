package org.rouse.api.internal.selector;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.rouse.api.internal.Arguments;
import org.rouse.api.internal.LatencyRecorder;
import org.rouse.selector.ChannelHandler;
import org.rouse.selector.ChannelHandlerFactory;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;
import org.rouse.selector.SelectorService;
import org.rouse.selector.SelectorStatistics;
import org.rouse.selector.spi.SelectorEngine;

/**
 * One consuming bundle's {@link SelectorService}: the registrations it made, its cap and its counters. Created by
 * the front's service factory; {@link #release()} closes everything the bundle registered.
 *
 * <pre>{@code
 * BundleSelectorView view = new BundleSelectorView(core, "com.example.server", () -> 65_536);
 * ChannelRegistration r = view.register(channel, SelectionKey.OP_READ, handler);
 * ...
 * view.release(); // closes channel
 * }</pre>
 */
public final class BundleSelectorView implements SelectorService {

    /*
     * Implementation notes.
     *
     * Algorithm. register() validates everything before it changes anything, then reserves a slot under the cap (CAS on
     * `count`), claims the channel across all views, records the handle and only then attaches it.
     *
     * Invariants.
     * 1. A failed register leaves nothing behind (each failing step undoes the earlier ones).
     * 2. release() versus a concurrent register(): release sets `released` and then closes every handle in `handles`;
     *    register adds its handle to `handles` and then re-checks `released`. Whichever runs second sees the other, so
     *    a handle registered concurrently with release is closed by one of them (close is idempotent).
     */

    private static final int SOCKET_OPS = SelectionKey.OP_READ | SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT;

    private final SelectorFrontCore core;
    private final String owner;
    private final IntSupplier maxRegistrations;

    /** The live registrations; added by register, removed when a handle ends. */
    private final Set<ChannelHandle> handles = ConcurrentHashMap.newKeySet();

    /** Slots in use under the cap; reserved by CAS in register, released when a handle ends. */
    private final AtomicInteger count = new AtomicInteger();

    /** Set once by release(); read by every call. */
    private volatile boolean released;

    private final LongAdder upcalls = new LongAdder();
    private final LongAdder failedUpcalls = new LongAdder();
    private final LatencyRecorder upcallDurations = new LatencyRecorder();

    /**
     * Creates a view.
     *
     * @param core the front's engine core, shared by all views
     * @param owner the consuming bundle, for logs and messages
     * @param maxRegistrations the current cap ({@code max.registrations.per.bundle}), read at each register
     */
    public BundleSelectorView(SelectorFrontCore core, String owner, IntSupplier maxRegistrations) {
        this.core = Arguments.notNull(core, "core");
        this.owner = Arguments.notNull(owner, "owner");
        this.maxRegistrations = Arguments.notNull(maxRegistrations, "maxRegistrations");
    }

    @Override
    public ChannelRegistration register(SelectableChannel channel, int interestOps, ChannelHandler handler)
            throws IOException {
        return register(channel, interestOps, handler, Dispatch.POOL);
    }

    @Override
    public ChannelRegistration register(
            SelectableChannel channel, int interestOps, ChannelHandler handler, Dispatch dispatchMode)
            throws IOException {
        Arguments.notNull(channel, "channel");
        Arguments.notNull(handler, "handler");
        Arguments.notNull(dispatchMode, "dispatch");
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
        if (channel.isBlocking()) {
            throw new IllegalBlockingModeException();
        }
        ChannelHandle.checkOps(channel, interestOps, "interestOps");
        ensureNotReleased();
        reserveSlot();
        ChannelHandle handle = new ChannelHandle(this, channel, interestOps, handler, dispatchMode);
        if (!core.claim(handle)) {
            count.decrementAndGet();
            throw new IllegalArgumentException(
                    "channel " + channel + " is already registered with the selector service");
        }
        handles.add(handle);
        if (released) {
            handle.cancel();
            throw new IllegalStateException("the selector service view of " + owner + " has been released");
        }
        core.attach(handle);
        return handle;
    }

    @Override
    public ChannelRegistration accept(ServerSocketChannel server, int interestOps, ChannelHandlerFactory factory)
            throws IOException {
        Arguments.notNull(server, "server");
        Arguments.notNull(factory, "factory");
        int invalid = interestOps & ~SOCKET_OPS;
        if (invalid != 0) {
            throw new IllegalArgumentException("interestOps " + ChannelHandle.describe(interestOps) + " contains "
                    + ChannelHandle.describe(invalid) + ", not valid for accepted connections (valid: "
                    + ChannelHandle.describe(SOCKET_OPS) + ")");
        }
        return register(
                server, SelectionKey.OP_ACCEPT, new AcceptHandler(this, server, interestOps, factory), Dispatch.INLINE);
    }

    @Override
    public void wakeup() {
        core.wakeup();
    }

    @Override
    public void execute(Runnable task) {
        Arguments.notNull(task, "task");
        if (released) {
            throw new RejectedExecutionException("the selector service view of " + owner + " has been released");
        }
        core.execute(task);
    }

    @Override
    public SelectorStatistics statistics() {
        SelectorEngine engine = core.active();
        return new ViewStatistics(
                handles.size(),
                upcalls.sum(),
                failedUpcalls.sum(),
                upcallDurations.snapshot(),
                engine == null ? 0 : engine.wakeupsRequested(),
                engine == null ? 0 : engine.wakeupsWritten(),
                engine == null ? "none" : engine.name());
    }

    /**
     * Ends the view: closes every channel it registered (each handler gets {@code onClosed(registration, null)})
     * and refuses further use. Idempotent.
     */
    public void release() {
        released = true;
        for (ChannelHandle handle : handles) {
            handle.close();
        }
    }

    /** Whether {@link #release()} has been called. */
    public boolean isReleased() {
        return released;
    }

    /** The consuming bundle this view belongs to. */
    public String owner() {
        return owner;
    }

    /** The live registrations, for the shell and JMX (a weakly consistent view). */
    java.util.Collection<ChannelHandle> handles() {
        return java.util.Collections.unmodifiableSet(handles);
    }

    /** Zeroes the upcall counts and durations (not the registrations). */
    void resetStatistics() {
        upcalls.reset();
        failedUpcalls.reset();
        upcallDurations.reset();
    }

    SelectorFrontCore core() {
        return core;
    }

    /** Called once by a handle that ended. */
    void forget(ChannelHandle handle) {
        if (handles.remove(handle)) {
            count.decrementAndGet();
        }
        core.unclaim(handle);
    }

    void upcallFinished(long nanos, boolean failed) {
        upcalls.increment();
        if (failed) {
            failedUpcalls.increment();
        }
        upcallDurations.record(nanos);
    }

    private void ensureNotReleased() {
        if (released) {
            throw new IllegalStateException("the selector service view of " + owner + " has been released");
        }
    }

    private void reserveSlot() {
        int cap = maxRegistrations.getAsInt();
        int n;
        do {
            n = count.get();
            if (n >= cap) {
                throw new RejectedExecutionException(
                        owner + " has " + n + " channels registered, the cap max.registrations.per.bundle = " + cap);
            }
        } while (!count.compareAndSet(n, n + 1));
    }

    /**
     * Accepts every pending connection and registers it with the factory's handler, on the loop thread; accept
     * errors back off (see {@link AcceptBackoff}).
     */
    private static final class AcceptHandler implements ChannelHandler {

        private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AcceptHandler.class);

        private final BundleSelectorView view;
        private final int connectionOps;
        private final ChannelHandlerFactory factory;
        private final AcceptBackoff backoff;

        AcceptHandler(
                BundleSelectorView view, ServerSocketChannel server, int connectionOps, ChannelHandlerFactory factory) {
            this.view = view;
            this.connectionOps = connectionOps;
            this.factory = factory;
            this.backoff = new AcceptBackoff(server + " (bundle " + view.owner + ")", server::accept);
        }

        @Override
        public void onReady(ChannelRegistration registration, int readyOps) {
            // Every pending connection per readiness; an accept error (EMFILE) pauses accepting instead of ending
            // the server registration or spinning on a socket that stays ready.
            backoff.drain(registration, this::adopt);
        }

        private void adopt(SocketChannel connection) {
            ChannelHandler handler;
            try {
                connection.configureBlocking(false);
                handler = factory.newHandler(connection);
            } catch (Throwable t) { // the factory is consumer code: one bad connection must not stop accepting
                LOG.warn(
                        "Handler factory failed for {} (bundle {}); closing the connection", connection, view.owner, t);
                closeQuietly(connection);
                return;
            }
            if (handler == null) {
                LOG.warn(
                        "Handler factory returned null for {} (bundle {}); closing the connection",
                        connection,
                        view.owner);
                closeQuietly(connection);
                return;
            }
            try {
                view.register(connection, connectionOps, handler, Dispatch.POOL);
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "Could not register accepted {} (bundle {}); closing it: {}",
                        connection,
                        view.owner,
                        e.toString());
                closeQuietly(connection);
            }
        }

        private static void closeQuietly(SocketChannel connection) {
            try {
                connection.close();
            } catch (IOException e) {
                LOG.debug("Closing {} failed", connection, e);
            }
        }
    }
}
