package org.rouse.benchmarks.selector;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metric;
import org.rouse.benchmarks.scenario.Metrics;
import org.rouse.benchmarks.scenario.Variant;

/**
 * One server under a connection storm, per round: {@code sequential} connections opened one after the other (each
 * then makes one echo call), closed; then {@code concurrent} non-blocking connects issued at once from one client
 * thread of a child JVM (so that both sides' descriptors need not fit one process's limit, and the memory measured
 * is the server's), each making one echo call as soon as it is connected. Connections are closed with a reset
 * (linger 0) so that no client port is left in TIME_WAIT between rounds.
 */
final class StormVariant implements Variant {

    static final Metric SEQUENTIAL_MS = new Metric("sequential_ms", "sequential: all served", "ms", 0);
    static final Metric SEQUENTIAL_SLOW = new Metric("sequential_slow", "sequential: connects > 1 s", "", 0);
    static final Metric SEQUENTIAL_MAX_MS = new Metric("sequential_max_ms", "sequential: slowest connect", "ms", 1);
    static final Metric CONCURRENT_MS = new Metric("concurrent_ms", "concurrent: all served", "ms", 0);
    static final Metric CONCURRENT_SLOW = new Metric("concurrent_slow", "concurrent: connects > 1 s", "", 0);
    static final Metric CONCURRENT_MAX_MS = new Metric("concurrent_max_ms", "concurrent: slowest connect", "ms", 1);
    static final Metric HEAP_PER_CONNECTION = new Metric("heap_per_connection_b", "heap/idle connection", "B", 0);
    static final Metric RSS_PER_CONNECTION = new Metric("rss_per_connection_b", "RSS/idle connection", "B", 0);

    private static final long SLOW_NANOS = 1_000_000_000L;

    private final ServerSetup setup;
    /** The longest a server may take to close the connections of one storm after its clients reset them. */
    private static final long CLOSE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final int sequential;
    private final int concurrent;
    private EchoServer server;

    StormVariant(ServerSetup setup, int sequential, int concurrent) {
        this.setup = setup;
        this.sequential = sequential;
        this.concurrent = concurrent;
    }

    @Override
    public String name() {
        return setup.name();
    }

    @Override
    public String description() {
        return setup.description();
    }

    @Override
    public void open() throws Exception {
        server = setup.factory().start();
    }

    @Override
    public Measurement runRound(Duration budget) throws Exception {
        Measurement.Builder m = Measurement.builder();
        InetSocketAddress address = server.address();
        LatencyHistogram connects = new LatencyHistogram();

        List<SocketChannel> clients = new ArrayList<>(sequential);
        long slow = 0;
        long max = 0;
        long start = System.nanoTime();
        try {
            for (int i = 0; i < sequential; i++) {
                long t0 = System.nanoTime();
                SocketChannel client = SocketChannel.open(address);
                long took = System.nanoTime() - t0;
                clients.add(client);
                connects.recordNanos(took);
                max = Math.max(max, took);
                if (took > SLOW_NANOS) {
                    slow++;
                }
                call(client);
            }
            m.put(SEQUENTIAL_MS, (System.nanoTime() - start) / 1e6)
                    .put(SEQUENTIAL_SLOW, slow)
                    .put(SEQUENTIAL_MAX_MS, max / 1e6);
        } finally {
            reset(clients);
        }
        // the server's side of 2,000 resets would otherwise run during the concurrent storm (and the last round's
        // 10,000 during the next variant's round, which shares these two cores)
        awaitAllClosed();

        long heapBefore = usedHeapAfterGc();
        long rssBefore = rssBytes();
        // The concurrent storm's clients run in a child JVM: the descriptors of both sides would not fit one
        // process's limit, and the memory measured here is then the server's alone.
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        StormVariant.class.getName(),
                        address.getAddress().getHostAddress(),
                        Integer.toString(address.getPort()),
                        Integer.toString(concurrent))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (BufferedReader fromChild =
                        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                Writer toChild = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
            String line = fromChild.readLine();
            if (line == null || !line.startsWith("served ")) {
                throw new IOException("storm client failed: " + line);
            }
            String[] f = line.split(" ");
            m.put(CONCURRENT_MS, Long.parseLong(f[1]) / 1e6)
                    .put(CONCURRENT_SLOW, Long.parseLong(f[2]))
                    .put(CONCURRENT_MAX_MS, Long.parseLong(f[3]) / 1e6);
            // every connection is open, accepted and has been served once: now idle
            m.put(HEAP_PER_CONNECTION, (usedHeapAfterGc() - heapBefore) / (double) concurrent)
                    .put(RSS_PER_CONNECTION, (rssBytes() - rssBefore) / (double) concurrent);
            toChild.write("close\n");
            toChild.flush();
            fromChild.readLine(); // "closed"
        } finally {
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        awaitAllClosed();
        return m.put(Metrics.OPS, sequential + concurrent)
                .put(Metrics.P50_US, connects.percentileMicros(50))
                .put(Metrics.P99_US, connects.percentileMicros(99))
                .put(Metrics.MAX_US, connects.maxMicros())
                .latency(connects)
                .build();
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /**
     * The concurrent storm's client process: {@code host port count}. Prints {@code served <elapsed ns> <connects
     * over 1 s> <slowest connect ns>} once every connection has been served, keeps them open until it reads a line,
     * then resets them and prints {@code closed}.
     */
    public static void main(String[] args) throws Exception {
        Storm storm = new Storm(new InetSocketAddress(args[0], Integer.parseInt(args[1])), Integer.parseInt(args[2]));
        try {
            storm.run();
            System.out.println("served " + storm.elapsedNanos + " " + storm.slow + " " + storm.maxConnectNanos);
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } finally {
            reset(storm.channels);
        }
        System.out.println("closed");
    }

    /** One echo call on a blocking client. */
    private static void call(SocketChannel client) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(EchoServer.MESSAGE_BYTES);
        while (out.hasRemaining()) {
            client.write(out);
        }
        ByteBuffer in = ByteBuffer.allocate(EchoServer.MESSAGE_BYTES);
        while (in.hasRemaining()) {
            if (client.read(in) < 0) {
                throw new IOException("server closed " + client);
            }
        }
    }

    /**
     * Waits until the server has closed every connection its clients reset, so that no round (of this variant or
     * the next) is measured while a server still works through an earlier storm's hang-ups.
     */
    private void awaitAllClosed() throws IOException {
        long deadline = System.nanoTime() + CLOSE_TIMEOUT_NANOS;
        int open;
        while ((open = server.openConnections()) > 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new IOException(setup.name() + " still holds " + open + " connections "
                        + TimeUnit.NANOSECONDS.toSeconds(CLOSE_TIMEOUT_NANOS) + " s after its clients reset them");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static void reset(List<SocketChannel> channels) throws IOException {
        for (SocketChannel channel : channels) {
            if (channel.isOpen()) {
                try {
                    channel.setOption(StandardSocketOptions.SO_LINGER, 0);
                } catch (IOException e) {
                    // already reset by the peer
                }
                channel.close();
            }
        }
        channels.clear();
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The process's resident set size (Linux), 0 where unknown. */
    private static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return 0;
    }

    /** {@code count} non-blocking connects issued back to back, each echoing once, driven by one selector. */
    private static final class Storm {

        private final InetSocketAddress address;
        private final int count;
        final List<SocketChannel> channels;
        long elapsedNanos;
        long slow;
        long maxConnectNanos;

        Storm(InetSocketAddress address, int count) {
            this.address = address;
            this.count = count;
            this.channels = new ArrayList<>(count);
        }

        /** Per-connection state: when connect() was called, then the request or reply in flight. */
        private static final class Client {
            final long connectStart;
            final ByteBuffer buffer = ByteBuffer.allocate(EchoServer.MESSAGE_BYTES);

            Client(long connectStart) {
                this.connectStart = connectStart;
            }
        }

        void run() throws IOException {
            try (Selector selector = Selector.open()) {
                long start = System.nanoTime();
                int done = 0;
                for (int i = 0; i < count; i++) {
                    SocketChannel channel = SocketChannel.open();
                    channels.add(channel);
                    channel.configureBlocking(false);
                    Client client = new Client(System.nanoTime());
                    if (channel.connect(address)) {
                        connected(client);
                        channel.register(selector, SelectionKey.OP_WRITE, client);
                    } else {
                        channel.register(selector, SelectionKey.OP_CONNECT, client);
                    }
                }
                while (done < count) {
                    if (selector.select(30_000) == 0 && System.nanoTime() - start > 120_000_000_000L) {
                        throw new IOException("storm: " + (count - done) + " connections not served after 120 s");
                    }
                    for (SelectionKey key : selector.selectedKeys()) {
                        SocketChannel channel = (SocketChannel) key.channel();
                        Client client = (Client) key.attachment();
                        if (key.isConnectable()) {
                            if (channel.finishConnect()) {
                                connected(client);
                                key.interestOps(SelectionKey.OP_WRITE);
                            }
                        } else if (key.isWritable()) {
                            channel.write(client.buffer);
                            if (!client.buffer.hasRemaining()) {
                                client.buffer.clear();
                                key.interestOps(SelectionKey.OP_READ);
                            }
                        } else if (key.isReadable()) {
                            if (channel.read(client.buffer) < 0) {
                                throw new IOException("server closed " + channel);
                            }
                            if (!client.buffer.hasRemaining()) {
                                key.interestOps(0);
                                done++;
                            }
                        }
                    }
                    selector.selectedKeys().clear();
                }
                elapsedNanos = System.nanoTime() - start;
            }
        }

        private void connected(Client client) {
            long took = System.nanoTime() - client.connectStart;
            maxConnectNanos = Math.max(maxConnectNanos, took);
            if (took > SLOW_NANOS) {
                slow++;
            }
        }
    }
}
