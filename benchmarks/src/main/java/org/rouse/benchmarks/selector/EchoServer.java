package org.rouse.benchmarks.selector;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A server on loopback that answers every {@value #MESSAGE_BYTES}-byte request with the same bytes: one per way of
 * serving connections that the selector scenarios compare ({@link ServerSetup}). Closing it closes every connection and waits for
 * its threads.
 */
interface EchoServer extends AutoCloseable {

    /** The size of every request and reply. */
    int MESSAGE_BYTES = 32;

    /** The listen backlog: 256 clients connect at once. */
    int BACKLOG = 1024;

    /** Where clients connect. */
    InetSocketAddress address();

    /**
     * The selector engine's counters ({@code SelectorEngine.counters()}, e.g. {@code wakeups.written} and
     * {@code select.cycles}); empty where the server has no Rouse engine.
     */
    default Map<String, Long> engineCounters() {
        return Map.of();
    }

    /**
     * Client connections the server still holds open (accepted and not yet closed on its side), or -1 where it does
     * not count them. After clients hang up, this reaching 0 says the server has finished closing them.
     */
    default int openConnections() {
        return -1;
    }

    @Override
    void close() throws Exception;

    /** A free port on the loopback interface. */
    static InetSocketAddress anyLoopbackPort() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }
}
