package org.rouse.selector;

import java.nio.channels.SocketChannel;
import org.osgi.annotation.versioning.ConsumerType;

/** Creates the handler for each connection accepted by {@link SelectorService#accept}. */
@ConsumerType
@FunctionalInterface
public interface ChannelHandlerFactory {

    /**
     * Returns the handler for a newly accepted connection (already in non-blocking mode).
     *
     * @throws Exception anything; the connection is then closed and accepting goes on
     */
    ChannelHandler newHandler(SocketChannel connection) throws Exception;
}
