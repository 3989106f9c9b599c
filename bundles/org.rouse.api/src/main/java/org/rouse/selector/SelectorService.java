package org.rouse.selector;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.RejectedExecutionException;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The consuming bundle's view of the shared selector loop. See the {@linkplain org.rouse.selector package
 * documentation} for the contract and an example.
 */
@ProviderType
public interface SelectorService {

    /**
     * Registers {@code channel} with {@link Dispatch#POOL} dispatch.
     *
     * @see #register(SelectableChannel, int, ChannelHandler, Dispatch)
     */
    ChannelRegistration register(SelectableChannel channel, int interestOps, ChannelHandler handler) throws IOException;

    /**
     * Registers {@code channel} for {@code interestOps}; {@code handler} is called whenever one of them is ready.
     *
     * @param channel an open, non-blocking channel not registered with this service yet
     * @param interestOps a subset of {@code channel.validOps()}; zero registers the channel without watching it
     * @throws NullPointerException if an argument is null
     * @throws java.nio.channels.ClosedChannelException if the channel is closed
     * @throws java.nio.channels.IllegalBlockingModeException if the channel is in blocking mode
     * @throws IllegalArgumentException if {@code interestOps} is not valid for the channel, or the channel is
     *     already registered with this service
     * @throws IllegalStateException if this view has been released
     * @throws IOException if the channel cannot be registered
     */
    ChannelRegistration register(SelectableChannel channel, int interestOps, ChannelHandler handler, Dispatch dispatch)
            throws IOException;

    /**
     * Accepts connections on {@code server} (inline, on the loop thread) and registers each new connection, in
     * non-blocking mode, for {@code interestOps} with the handler {@code factory} returns. A factory that throws or
     * returns {@code null} gets that connection closed; accepting goes on. Every pending connection is accepted per
     * readiness. An error from {@code accept()} (such as "Too many open files") is logged once per run of failures
     * and pauses accepting for a delay starting at 10 ms and doubling up to 1 s; the server stays registered.
     *
     * <p>Bind {@code server} with a listen backlog of at least 1024 ({@code server.bind(address, 1024)}): the
     * JDK's default of 50 overflows under a storm of connecting clients, and a client whose SYN is dropped waits for
     * its retransmission (1 s on Linux). The kernel caps the backlog at {@code net.core.somaxconn}.
     *
     * @return the server channel's registration; closing it stops accepting and closes the server channel
     * @throws IOException as for {@link #register(SelectableChannel, int, ChannelHandler, Dispatch)}
     */
    ChannelRegistration accept(ServerSocketChannel server, int interestOps, ChannelHandlerFactory factory)
            throws IOException;

    /**
     * Wakes the loop if it is blocked in a select. Coalesced: many calls before the loop next selects cost one
     * wakeup, and none is written while the loop is awake.
     */
    void wakeup();

    /**
     * Runs {@code task} on the loop thread (the one selecting at that moment), soon. The task must not block.
     *
     * @throws RejectedExecutionException if this view has been released
     */
    void execute(Runnable task);

    /** A snapshot of this view's counters and of the engine running the loop. */
    SelectorStatistics statistics();
}
