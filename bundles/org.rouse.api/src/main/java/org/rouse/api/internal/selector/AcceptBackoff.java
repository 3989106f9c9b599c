package org.rouse.api.internal.selector;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.rouse.api.internal.Arguments;
import org.rouse.selector.ChannelRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains a listening socket and rides out accept errors: every pending connection is taken per readiness (accept
 * until it returns {@code null}), and an {@link IOException} from {@code accept()} (typically {@code EMFILE}, "Too
 * many open files", or {@code ENFILE}) suspends the server's registration for a bounded delay instead of ending it
 * or spinning on a socket that stays ready.
 *
 * <p>A <em>burst</em> is a run of failed accepts with no connection accepted in between. The first failure of a burst
 * is logged once at WARN; later failures of the same burst are only counted. Each failure suspends the registration
 * and schedules its resumption after a delay that starts at {@link #FIRST_DELAY_MS} and doubles per failure of the
 * burst up to {@link #MAX_DELAY_MS}; while suspended the loop does not select the socket, so {@code accept()} is not
 * called at all. The first accept that succeeds (or finds nothing pending) ends the burst and resets the delay.
 *
 * <p>Used on the registration's own upcall (the loop thread for an {@link org.rouse.selector.Dispatch#INLINE}
 * acceptor), which the selector service never runs twice at once:
 *
 * <pre>{@code
 * AcceptBackoff backoff = new AcceptBackoff(server.toString(), server::accept);
 * selector.register(server, SelectionKey.OP_ACCEPT, (reg, ops) -> backoff.drain(reg, this::adopt), Dispatch.INLINE);
 * }</pre>
 *
 * <p>A listening socket should also be bound with a backlog of at least {@link #RECOMMENDED_BACKLOG}
 * ({@code server.bind(address, AcceptBackoff.RECOMMENDED_BACKLOG)}); {@link ServerSocketChannel#bind(
 * java.net.SocketAddress)} uses the JDK's 50, which a storm of reconnecting clients overflows, and each client whose
 * SYN is dropped then waits for its retransmission (1 s on Linux).
 */
public final class AcceptBackoff {

    /*
     * Implementation notes.
     *
     * Sources. Tomcat's Acceptor (handleExceptionWithDelay: 50 ms doubling to 1.6 s after an accept error) and Netty's
     * ServerBootstrapAcceptor (auto-read off for 1 s after an exception); Redis logs accept errors and keeps its
     * listener armed, which on EMFILE makes the event loop return at once on every iteration.
     *
     * Invariants.
     * 1. drain() runs on the registration's upcall only, so `failures`, `burstStartNanos` and `delayMs` are confined
     *    to it (the selector service publishes one upcall's writes to the next).
     * 2. Only a failure suspends, and it schedules exactly one resumption; `suspendedByUs` is set before suspend() and
     *    cleared by that resumption, so a registration the consumer suspended for its own reasons is left alone.
     *
     * Costs. Nothing on the accept path beyond a null check of the burst; one scheduled task per failure.
     */

    /** Delay after the first failed accept of a burst. */
    public static final long FIRST_DELAY_MS = 10;

    /** Longest delay between accept attempts while they keep failing. */
    public static final long MAX_DELAY_MS = 1000;

    /** The listen backlog Rouse binds with and recommends (Netty binds with {@code somaxconn}, 4096 on current Linux kernels; Redis with 511). */
    public static final int RECOMMENDED_BACKLOG = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(AcceptBackoff.class);

    /** Where the connections come from: {@code server::accept}, or a test's error source. */
    @FunctionalInterface
    public interface Source {
        /** The next pending connection, or {@code null} if none is pending. */
        SocketChannel accept() throws IOException;
    }

    /** Runs a task after a delay (the default: the JDK's shared delay scheduler). */
    @FunctionalInterface
    public interface Scheduler {
        void after(long delayMs, Runnable task);
    }

    private final String name;
    private final Source source;
    private final Scheduler scheduler;
    private final Consumer<String> warn;

    /*
     * Upcall-confined state (invariant 1); atomics only so that static analysis need not know the confinement, and
     * touched only on a failure or the accept that ends a burst.
     */
    /** Failed accepts in the current burst (0 = none). */
    private final AtomicInteger failures = new AtomicInteger();
    /** When the current burst's first failure happened. */
    private final AtomicLong burstStartNanos = new AtomicLong();
    /** The delay in ms the next failure suspends for. */
    private final AtomicLong delayMs = new AtomicLong(FIRST_DELAY_MS);

    /** Set by drain() before it suspends; cleared by the scheduled resumption (volatile: another thread). */
    private volatile boolean suspendedByUs;

    /** Failed accepts; incremented on the upcall, read anywhere. */
    private final LongAdder totalFailures = new LongAdder();

    /** Bursts logged; incremented on the upcall, read anywhere. */
    private final LongAdder bursts = new LongAdder();

    /**
     * A back-off for {@code source}, logging to this class's logger and resuming on the JDK's delay scheduler.
     *
     * @param name what is listening, for the log line (e.g. the server channel)
     */
    public AcceptBackoff(String name, Source source) {
        this(name, source, AcceptBackoff::schedule, message -> LOG.warn(message));
    }

    /**
     * A back-off with an explicit scheduler and WARN sink (tests count the lines).
     *
     * @param scheduler runs the resumption after the delay; it must not run it inline
     * @param warn receives the one line per burst
     */
    public AcceptBackoff(String name, Source source, Scheduler scheduler, Consumer<String> warn) {
        this.name = Arguments.notNull(name, "name");
        this.source = Arguments.notNull(source, "source");
        this.scheduler = Arguments.notNull(scheduler, "scheduler");
        this.warn = Arguments.notNull(warn, "warn");
    }

    /**
     * Accepts every pending connection and hands each to {@code sink}; on an accept error suspends {@code
     * registration} and schedules its resumption (see the class comment). Call it from the registration's upcall.
     *
     * @return the number of connections accepted
     */
    public int drain(ChannelRegistration registration, Consumer<SocketChannel> sink) {
        int accepted = 0;
        while (true) {
            SocketChannel connection;
            try {
                connection = source.accept();
            } catch (IOException e) {
                backOff(registration, e);
                return accepted;
            }
            if (failures.get() != 0) {
                endBurst();
            }
            if (connection == null) {
                return accepted;
            }
            accepted++;
            sink.accept(connection);
        }
    }

    /** Failed accepts since creation. */
    public long failures() {
        return totalFailures.sum();
    }

    /** Bursts of failed accepts since creation (each logged once). */
    public long bursts() {
        return bursts.sum();
    }

    /** Whether accepting is suspended for a back-off now. */
    public boolean backingOff() {
        return suspendedByUs;
    }

    private void backOff(ChannelRegistration registration, IOException e) {
        long delay = delayMs.get();
        if (failures.getAndIncrement() == 0) {
            burstStartNanos.set(System.nanoTime());
            bursts.increment();
            warn.accept("Cannot accept on " + name + ": " + e + "; pausing accepts for " + delay
                    + " ms, then retrying with a doubling delay up to " + MAX_DELAY_MS
                    + " ms (failures are not logged again until a connection is accepted)");
        }
        totalFailures.increment();
        delayMs.set(Math.min(MAX_DELAY_MS, delay * 2));
        suspendedByUs = true;
        registration.suspend();
        scheduler.after(delay, () -> {
            if (suspendedByUs) {
                suspendedByUs = false;
                if (registration.isValid()) {
                    registration.resume();
                }
            }
        });
    }

    private void endBurst() {
        LOG.debug(
                "Accepting on {} again after {} failed accepts in {} ms",
                name,
                failures.get(),
                (System.nanoTime() - burstStartNanos.get()) / 1_000_000);
        failures.set(0);
        delayMs.set(FIRST_DELAY_MS);
    }

    private static void schedule(long delayMs, Runnable task) {
        CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS, Runnable::run)
                .execute(task);
    }
}
