package org.rouse.selector;

import java.nio.channels.SelectableChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A handle to one channel registered with the {@link SelectorService}. Handles stay valid across engine swaps and
 * may be used from any thread.
 */
@ProviderType
public interface ChannelRegistration extends AutoCloseable {

    /** The registered channel. */
    SelectableChannel channel();

    /** Where the handler runs. */
    Dispatch dispatch();

    /** The operations the channel is watched for (when not suspended). */
    int interestOps();

    /**
     * Changes the operations the channel is watched for, effective at once (the loop is woken if needed). During an
     * upcall the new operations apply when the handler returns.
     *
     * @throws IllegalArgumentException if {@code ops} is not a subset of the channel's valid operations
     * @throws IllegalStateException if the registration has ended
     */
    void interestOps(int ops);

    /** Stops watching the channel until {@link #resume()}; idempotent. */
    void suspend();

    /** Watches the channel again for its interest operations; idempotent. */
    void resume();

    /** Whether the registration is suspended. */
    boolean isSuspended();

    /** Whether the registration is still in force (neither cancelled nor closed). */
    boolean isValid();

    /**
     * Deregisters the channel and leaves it open (it can then be registered again, with this or another
     * service). Idempotent. An upcall in progress finishes but the channel is not re-armed.
     *
     * <p>When this method returns, the channel is registered with no selector of the service: its keys are cancelled
     * and flushed by a selection operation, so it may at once be {@linkplain
     * java.nio.channels.SelectableChannel#configureBlocking(boolean) put into blocking mode} or registered with
     * another selector. That holds from any thread, including from inside this channel's own upcall (on a worker
     * or, for {@link Dispatch#INLINE}, on the loop thread). Where waiting could deadlock, this method does not wait,
     * and deregistration completes later, signalled by the stage {@link #deregister()} returns:
     *
     * <ul>
     *   <li>called while an upcall of this channel runs on <em>another</em> thread: the worker running it may keep the
     *       channel registered with its private watch selector (see the watch period) until the handler returns;
     *       this method never waits for a handler;
     *   <li>called on a select loop thread (an inline handler, an accept handler factory, an {@link
     *       SelectorService#execute} task) for a channel served by another loop of the same engine: that loop
     *       flushes the key the next time it runs;
     *   <li>the loop that must flush the key is itself stuck in a callback (a handler or factory that blocks): after
     *       the engine's bound ({@code loop.wait.timeout.ms}) this method logs a warning and returns, and the key is
     *       flushed when the callback returns;
     *   <li>during an engine swap whose drain has not reached every loop yet: the old engine's loops release the
     *       channel when the drain reaches them (again waited for up to the bound).
     * </ul>
     */
    void cancel();

    /**
     * Cancels exactly as {@link #cancel()} does and returns a stage that completes once the registration has ended
     * and its channel is registered with no selector of the service. In the cases {@code cancel()} does not wait
     * for, this is how to learn when the channel may be put into blocking mode: for example, from inside an upcall
     * of another channel, {@code registration.deregister().thenRun(() -> handOver(channel))}. Idempotent: after the
     * registration has ended (cancelled or closed) it returns a stage for the same completion. The stage never
     * completes exceptionally.
     *
     * @return a stage completed once the channel has left every selector of the service
     * @since 1.1
     */
    default CompletionStage<Void> deregister() {
        cancel();
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Deregisters and closes the channel, then calls {@link ChannelHandler#onClosed}. Idempotent. Deregistration
     * waits as for {@link #cancel()}; {@link #deregister()} then returns the stage of its completion.
     */
    @Override
    void close();
}
