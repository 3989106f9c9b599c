package org.rouse.examples.resp.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.selector.ChannelHandler;
import org.rouse.selector.ChannelHandlerFactory;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.Dispatch;
import org.rouse.selector.SelectorService;
import org.rouse.selector.SelectorStatistics;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The server over the real selector and lock fronts, driven by Jedis (a standard Redis client) and raw sockets, with
 * the default (inline) connection dispatch; {@link RespServerPoolDispatchTest} runs the same tests on the pool.
 */
@Timeout(60)
class RespServerTest {

    /** Where connections' commands run in this class's tests. */
    Dispatch dispatch() {
        return Dispatch.INLINE;
    }

    private RespRig rig() throws IOException {
        return new RespRig(dispatch());
    }

    private RespRig rig(RespParser.Limits limits, Duration idleTimeout, int maxConnections) throws IOException {
        return new RespRig(limits, idleTimeout, maxConnections, dispatch());
    }

    @Test
    void commandsRunWhereTheDispatchSays() throws Exception {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (RespRig rig = rig();
                RespServer server = new RespServer(
                        new ThreadRecordingSelector(rig.view, threads),
                        rig.keys,
                        (delay, task) -> () -> {},
                        new RespServer.Settings(
                                new InetSocketAddress("127.0.0.1", 0),
                                RespServerComponent.DEFAULTS.limits(),
                                Duration.ZERO,
                                100,
                                50,
                                dispatch()));
                Jedis jedis = new Jedis("127.0.0.1", server.address().getPort())) {
            for (int i = 0; i < 20; i++) {
                assertEquals("PONG", jedis.ping());
            }
            assertFalse(threads.isEmpty());
            String loop = "rouse-selector-loop-";
            if (dispatch() == Dispatch.INLINE) {
                assertTrue(threads.stream().allMatch(t -> t.startsWith(loop)), "inline: only loop threads, " + threads);
            } else {
                // pool dispatch: on workers, or on a loop thread as a pool upcall the loop runs itself (the
                // take-over, counted in loop.upcalls) or after it handed the selecting over (loop.handovers); inline
                // commands would run on the loop and count in neither
                long onLoop = rig.engine.counters().get("loop.upcalls")
                        + rig.engine.counters().get("loop.handovers");
                assertTrue(
                        threads.stream().noneMatch(t -> t.startsWith(loop)) || onLoop > 0,
                        "pool: only workers or loop threads running pool upcalls, " + threads + ", " + onLoop);
            }
        }
    }

    /** The real selector service, recording the threads the connections' upcalls run on. */
    private record ThreadRecordingSelector(SelectorService delegate, Set<String> threads) implements SelectorService {
        @Override
        public ChannelRegistration register(SelectableChannel channel, int ops, ChannelHandler handler)
                throws IOException {
            return register(channel, ops, handler, Dispatch.POOL);
        }

        @Override
        public ChannelRegistration register(
                SelectableChannel channel, int ops, ChannelHandler handler, Dispatch dispatch) throws IOException {
            ChannelHandler recording = channel instanceof ServerSocketChannel
                    ? handler
                    : new ChannelHandler() {
                        @Override
                        public void onReady(ChannelRegistration registration, int readyOps) throws Exception {
                            threads.add(Thread.currentThread().getName());
                            handler.onReady(registration, readyOps);
                        }

                        @Override
                        public void onClosed(ChannelRegistration registration, Throwable cause) {
                            handler.onClosed(registration, cause);
                        }
                    };
            return delegate.register(channel, ops, recording, dispatch);
        }

        @Override
        public ChannelRegistration accept(ServerSocketChannel server, int ops, ChannelHandlerFactory factory)
                throws IOException {
            return delegate.accept(server, ops, factory);
        }

        @Override
        public void wakeup() {
            delegate.wakeup();
        }

        @Override
        public void execute(Runnable task) {
            delegate.execute(task);
        }

        @Override
        public SelectorStatistics statistics() {
            return delegate.statistics();
        }
    }

    @Test
    void jedisRunsEveryCommand() throws Exception {
        try (RespRig rig = rig();
                Jedis jedis = new Jedis("127.0.0.1", rig.port())) {
            assertEquals("PONG", jedis.ping());
            assertEquals("hello", jedis.echo("hello"));
            assertEquals("OK", jedis.set("greeting", "hi there"));
            assertEquals("hi there", jedis.get("greeting"));
            assertNull(jedis.get("missing"));
            byte[] binary = {0, '\r', '\n', (byte) 0xff, '$', '*'};
            jedis.set("binary".getBytes(StandardCharsets.UTF_8), binary);
            assertArrayEquals(binary, jedis.get("binary".getBytes(StandardCharsets.UTF_8)));
            assertEquals(1, jedis.incr("n"));
            assertEquals(2, jedis.incr("n"));
            assertEquals(List.of("hi there", "2"), jedis.mget("greeting", "n").subList(0, 2));
            assertEquals(java.util.Arrays.asList("2", null), jedis.mget("n", "missing"));
            assertEquals(2, jedis.exists("greeting", "n", "missing"));
            assertTrue(jedis.exists("n"));
            assertEquals(2, jedis.del("greeting", "n", "missing"));
            assertEquals(0, jedis.exists("greeting", "n"));
            JedisDataException notInteger = assertThrows(JedisDataException.class, () -> jedis.incr("binary"));
            assertEquals("ERR value is not an integer or out of range", notInteger.getMessage());
            assertEquals("PONG", jedis.ping(), "an error reply leaves the connection usable");
        }
    }

    @Test
    void pipelinedCommandsAreAnsweredInOrder() throws Exception {
        try (RespRig rig = rig();
                Jedis jedis = new Jedis("127.0.0.1", rig.port())) {
            Pipeline pipeline = jedis.pipelined();
            List<Response<Long>> increments = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                increments.add(pipeline.incr("p"));
            }
            pipeline.sync();
            for (int i = 0; i < increments.size(); i++) {
                assertEquals(i + 1, increments.get(i).get());
            }
        }
    }

    @Test
    void aPipelinedBatchIsAnsweredInOrderWithOneWrite() throws Exception {
        try (RespRig rig = rig();
                Jedis jedis = new Jedis("127.0.0.1", rig.port())) {
            assertEquals("PONG", jedis.ping()); // the connection handshake is over
            long before = rig.server.replyBatches();
            Pipeline pipeline = jedis.pipelined(); // as redis-benchmark -P 16: 16 commands in one flush
            List<Response<String>> sets = new ArrayList<>();
            List<Response<String>> gets = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                sets.add(pipeline.set("key" + i, "value" + i));
                gets.add(pipeline.get("key" + i));
            }
            pipeline.sync();
            for (int i = 0; i < 8; i++) {
                assertEquals("OK", sets.get(i).get());
                assertEquals("value" + i, gets.get(i).get());
            }
            assertEquals(1, rig.server.replyBatches() - before, "16 replies in one write");
        }
    }

    @Test
    void concurrentClientsLoseNoIncrement() throws Exception {
        int clients = 16;
        int calls = 500;
        try (RespRig rig = rig()) {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    done.add(pool.submit(() -> {
                        try (Jedis jedis = new Jedis("127.0.0.1", rig.port())) {
                            for (int i = 0; i < calls; i++) {
                                jedis.incr("shared");
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            try (Jedis jedis = new Jedis("127.0.0.1", rig.port())) {
                assertEquals(Long.toString((long) clients * calls), jedis.get("shared"));
            }
            await().until(() -> rig.server.connections() == 0);
        }
    }

    @Test
    void inlineCommandsWorkAsFromTelnet() throws Exception {
        try (RespRig rig = rig()) {
            RawClient socket = rig.connect();
            socket.send("PING\r\nSET k v\r\nGET k\r\nnosuch a\r\nget\r\nQUIT\r\n");
            assertEquals("+PONG", socket.readLine());
            assertEquals("+OK", socket.readLine());
            assertEquals("$1", socket.readLine());
            assertEquals("v", socket.readLine());
            assertEquals("-ERR unknown command 'nosuch', with args beginning with: 'a' ", socket.readLine());
            assertEquals("-ERR wrong number of arguments for 'get' command", socket.readLine());
            assertEquals("+OK", socket.readLine());
            assertTrue(socket.closedByServer(), "QUIT closes");
        }
    }

    @Test
    void malformedInputGetsAnErrorAndTheConnectionClosedOthersCarryOn() throws Exception {
        try (RespRig rig = rig(new RespParser.Limits(64, 8, 100), Duration.ofSeconds(300), 100);
                Jedis bystander = new Jedis("127.0.0.1", rig.port())) {
            assertEquals("OK", bystander.set("k", "v"));
            for (String bad : List.of(
                    "*1\r\n+PING\r\n", "*2\r\n$3\r\nGET\r\n$101\r\n", "*9\r\n", "x".repeat(100), "*1\r\n$-5\r\n")) {
                RawClient socket = rig.connect();
                socket.send(bad);
                String reply = socket.readLine();
                assertTrue(reply.startsWith("-ERR Protocol error: "), reply);
                assertTrue(socket.closedByServer(), bad);
            }
            assertEquals("v", bystander.get("k"));
            await().until(() -> rig.server.connections() == 1);
        }
    }

    @Test
    void halfCloseAnswersWhatWasSentThenCloses() throws Exception {
        try (RespRig rig = rig()) {
            RawClient socket = rig.connect();
            socket.send("PING\r\n*2\r\n$4\r\nECHO\r\n$3\r\nbye\r\n");
            socket.socket.shutdownOutput();
            assertEquals("+PONG", socket.readLine());
            assertEquals("$3", socket.readLine());
            assertEquals("bye", socket.readLine());
            assertTrue(socket.closedByServer());
            await().until(() -> rig.server.connections() == 0);
        }
    }

    @Test
    void peersThatResetOrVanishMidCommandLeaveNothingBehind() throws Exception {
        try (RespRig rig = rig()) {
            for (int i = 0; i < 20; i++) {
                RawClient socket = rig.connect();
                socket.send("*2\r\n$3\r\nGET\r\n$100\r\npartial");
                if (i % 2 == 0) {
                    socket.socket.setSoLinger(true, 0); // RST
                }
                socket.close();
            }
            await().until(() -> rig.server.connections() == 0);
            await().until(() -> rig.view.statistics().registrations() == 1); // only the listener
            try (Jedis jedis = new Jedis("127.0.0.1", rig.port())) {
                assertEquals("PONG", jedis.ping());
            }
        }
    }

    @Test
    void idleConnectionsAreClosedAndBusyOnesAreNot() throws Exception {
        try (RespRig rig = rig(RespServerComponent.DEFAULTS.limits(), Duration.ofSeconds(1), 100)) {
            RawClient idle = rig.connect();
            RawClient busy = rig.connect();
            long start = System.nanoTime();
            while (System.nanoTime() - start < 2_500_000_000L) { // 2.5 timeouts of activity
                busy.send("PING\r\n");
                assertEquals("+PONG", busy.readLine());
                Thread.onSpinWait();
            }
            assertTrue(idle.closedByServer(), "idle for longer than the timeout");
            busy.send("PING\r\n");
            assertEquals("+PONG", busy.readLine(), "activity kept it open");
            await().until(() -> rig.server.connections() == 1);
        }
    }

    @Test
    void connectionsAboveTheMaximumAreClosed() throws Exception {
        try (RespRig rig = rig(RespServerComponent.DEFAULTS.limits(), Duration.ofSeconds(300), 2);
                Jedis one = new Jedis("127.0.0.1", rig.port());
                Jedis two = new Jedis("127.0.0.1", rig.port())) {
            assertEquals("PONG", one.ping());
            assertEquals("PONG", two.ping());
            RawClient third = rig.connect();
            assertTrue(third.closedByServer());
            assertEquals("PONG", one.ping());
        }
    }

    @Test
    void repliesLargerThanTheSocketBuffersArriveWholeAndInOrder() throws Exception {
        try (RespRig rig = rig()) {
            RawClient socket = rig.connect();
            String value = "v".repeat(100_000);
            socket.send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$100000\r\n" + value + "\r\n");
            assertEquals("+OK", socket.readLine());
            // 30 MB of replies, far more than the socket buffers: the server waits for OP_WRITE and reads nothing
            // meanwhile
            StringBuilder many = new StringBuilder();
            for (int i = 0; i < 300; i++) {
                many.append("GET k\r\n");
            }
            socket.send(many.toString());
            // now read everything back: every reply arrives, in order
            for (int i = 0; i < 300; i++) {
                assertEquals("$100000", socket.readLine());
                assertEquals(value, socket.readLine());
            }
        }
    }
}
