package org.rouse.selector;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Handles readiness of one registered channel. Implemented by consumers.
 *
 * <p>Called with the operations that are ready; when it returns the channel is watched again for its registration's
 * {@linkplain ChannelRegistration#interestOps() current interest operations}, which the handler may have changed
 * (for example to add {@code OP_WRITE} when a reply did not fit the socket buffer).
 */
@ConsumerType
@FunctionalInterface
public interface ChannelHandler {

    /**
     * Handles ready operations.
     *
     * @param registration the channel's registration
     * @param readyOps the operations that were ready when the loop selected the channel
     * @throws Exception anything; the channel is then deregistered and closed, and {@link #onClosed} called
     */
    void onReady(ChannelRegistration registration, int readyOps) throws Exception;

    /**
     * Called once when the registration ends because the channel was closed through the service or because a
     * handler threw, with that exception as {@code cause} ({@code null} for a normal close). Never called for
     * {@link ChannelRegistration#cancel()}. Must not throw.
     */
    default void onClosed(ChannelRegistration registration, Throwable cause) {}
}
