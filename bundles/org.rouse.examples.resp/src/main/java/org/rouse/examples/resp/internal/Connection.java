package org.rouse.examples.resp.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import org.rouse.selector.ChannelHandler;
import org.rouse.selector.ChannelRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: reads commands, executes them in order and writes the replies, with pipelining.
 *
 * <p>Implementation notes. Runs inline on the loop thread or on the worker pool (the server's configured dispatch);
 * either way the selector never runs two upcalls for one channel at once and publishes one upcall's writes to the
 * next (inline: one thread; pool: the front claims the upcall by CAS), so the parser, reply buffer and flags below
 * need no lock. Back-pressure: while replies are waiting for the socket the
 * connection watches only {@code OP_WRITE} and reads nothing, so a client that does not read its replies cannot
 * make the server buffer without bound; at most {@link #FLUSH_THRESHOLD} plus one reply is produced before writing.
 * Half-close: end of stream answers the commands already received, then closes. A reset or any other I/O error
 * closes quietly (it is the peer's doing, not a server fault). Idle timeout: one timer per connection, armed for the
 * timeout; when it fires it closes the connection if nothing happened for the timeout, or re-arms for the rest of it,
 * so an active connection costs one timer event per timeout period and nothing polls.
 */
final class Connection implements ChannelHandler {

    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    /** Replies produced before they are written out, so pipelined commands share system calls. */
    static final int FLUSH_THRESHOLD = 64 * 1024;

    /** At most this much is read per upcall, so one busy client does not hold a worker for long. */
    private static final int READ_PER_UPCALL = 4;

    private final RespServer server;
    private final Commands commands;
    private final RespParser parser;
    private final Duration idleTimeout;
    private final ReplyBuffer replies = new ReplyBuffer();
    private final ByteBuffer input = ByteBuffer.allocate(16 * 1024);

    /** Written at the start of each upcall, read by the idle timer's thread. */
    private volatile long lastActivityNanos = System.nanoTime();
    /** Written once by the acceptor right after registering, before the idle timer is armed. */
    private volatile ChannelRegistration registration;
    /** Written by the acceptor and by the idle timer's thread (each re-arm), read on close. */
    private volatile IdleTimers.Cancellable idleTimer;

    /** Upcall state (see the notes): the peer ended its output; the connection closes once replies are written. */
    private boolean peerClosed;
    /** Upcall state: a protocol error or QUIT; the connection closes once replies are written. */
    private boolean closing;

    Connection(RespServer server, Commands commands, RespParser.Limits limits, Duration idleTimeout) {
        this.server = server;
        this.commands = commands;
        this.parser = new RespParser(limits);
        this.idleTimeout = idleTimeout;
    }

    /** Called by the acceptor once the channel is registered. */
    void registered(ChannelRegistration registered, IdleTimers timers) {
        this.registration = registered;
        if (!idleTimeout.isZero()) {
            IdleTimers.Cancellable timer = timers.after(idleTimeout, () -> idleCheck(timers));
            idleTimer = timer;
            if (!registered.isValid()) {
                timer.cancel(); // closed before the timer was armed: onClosed found nothing to cancel
            }
        }
    }

    private void idleCheck(IdleTimers timers) {
        ChannelRegistration current = registration;
        if (current == null || !current.isValid()) {
            return;
        }
        long idleNanos = System.nanoTime() - lastActivityNanos;
        long remainingNanos = idleTimeout.toNanos() - idleNanos;
        if (remainingNanos <= 0) {
            LOG.debug("Closing {}: idle for {} s", current.channel(), idleNanos / 1_000_000_000L);
            current.close();
            return;
        }
        try {
            idleTimer = timers.after(Duration.ofNanos(remainingNanos), () -> idleCheck(timers));
        } catch (RuntimeException e) {
            LOG.warn("Closing {}: cannot arm its idle timer ({})", current.channel(), e.toString());
            current.close();
        }
    }

    @Override
    public void onReady(ChannelRegistration reg, int readyOps) {
        lastActivityNanos = System.nanoTime();
        SocketChannel channel = (SocketChannel) reg.channel();
        try {
            if ((readyOps & SelectionKey.OP_READ) != 0 && !peerClosed) {
                read(channel);
            }
            serve(reg, channel);
        } catch (IOException e) {
            LOG.debug("Closing {}: {}", channel, e.toString()); // reset or vanished peer
            reg.close();
        }
    }

    private void read(SocketChannel channel) throws IOException {
        for (int i = 0; i < READ_PER_UPCALL; i++) {
            int count = channel.read(input);
            if (count < 0) {
                peerClosed = true;
                return;
            }
            if (count == 0) {
                return;
            }
            input.flip();
            parser.append(input);
            input.clear();
        }
    }

    /** Executes the buffered commands, writes the replies and chooses what to watch next. */
    private void serve(ChannelRegistration reg, SocketChannel channel) throws IOException {
        boolean moreCommands = true;
        while (true) {
            while (moreCommands && !closing && replies.pending() < FLUSH_THRESHOLD) {
                moreCommands = executeNext();
            }
            if (replies.pending() > 0) {
                server.replyBatchWritten(); // every reply of the commands parsed so far, in one write
                if (!replies.writeTo(channel)) {
                    watch(reg, SelectionKey.OP_WRITE); // the rest of the commands wait until the client reads
                    return;
                }
            }
            if (closing || (peerClosed && !moreCommands)) {
                reg.close();
                return;
            }
            if (!moreCommands) {
                break;
            }
        }
        watch(reg, SelectionKey.OP_READ);
    }

    /** Runs the next buffered command; returns false if there was none. */
    private boolean executeNext() {
        List<byte[]> command;
        try {
            command = parser.next();
        } catch (RespParser.ProtocolException e) {
            replies.error("ERR Protocol error: " + e.getMessage());
            closing = true;
            return false;
        }
        if (command == null) {
            return false;
        }
        if (commands.execute(command, replies) == Commands.Outcome.CLOSE) {
            closing = true;
        }
        return true;
    }

    private static void watch(ChannelRegistration reg, int ops) {
        if (reg.interestOps() != ops) {
            reg.interestOps(ops);
        }
    }

    @Override
    public void onClosed(ChannelRegistration reg, Throwable cause) {
        IdleTimers.Cancellable timer = idleTimer;
        if (timer != null) {
            timer.cancel();
        }
        server.closed(this);
    }

    /** Closes the connection (server shutdown). */
    void close() {
        ChannelRegistration current = registration;
        if (current != null) {
            current.close();
        }
    }
}
