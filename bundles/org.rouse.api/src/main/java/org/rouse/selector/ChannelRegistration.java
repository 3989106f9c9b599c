package org.rouse.selector;

import java.nio.channels.SelectableChannel;
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
     */
    void cancel();

    /** Deregisters and closes the channel, then calls {@link ChannelHandler#onClosed}. Idempotent. */
    @Override
    void close();
}
