package org.rouse.benchmarks.selector;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetSocketAddress;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Netty NIO with one event loop thread ({@code rouse-bench-netty-loop-*}, like Rouse's one loop) that accepts and
 * frames the requests; the echo handler runs either inline on the loop or offloaded to a
 * {@link DefaultEventExecutorGroup} ({@code rouse-bench-netty-handler-*}), Netty's own answer to "do not block the
 * event loop", whose reply is handed back to the loop as a task.
 */
final class NettyEchoServer implements EchoServer {

    /** Threads of the offload group: each connection is pinned to one of them. */
    static final int OFFLOAD_THREADS = 16;

    /** How long the groups must be idle before they terminate. */
    private static final long QUIET_PERIOD_MS = 100;

    /** Connections whose pipeline was set up; incremented on the loop. */
    private final AtomicInteger accepted = new AtomicInteger();
    /** One permit per connection whose echo handler was removed (its pipeline's last event on the handler group). */
    private final Semaphore removed = new Semaphore(0);

    private final ChannelHandler echo = new Echo();

    private final EventLoopGroup loop;
    private final EventExecutorGroup handlers;
    /** The accepted connections (a closed one leaves by itself). */
    private final ChannelGroup connections;

    private final Channel server;

    /** @param offload run the echo handler on a {@link DefaultEventExecutorGroup} rather than on the loop */
    NettyEchoServer(boolean offload) throws InterruptedException {
        loop = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("rouse-bench-netty-loop", true), NioIoHandler.newFactory());
        handlers = offload
                ? new DefaultEventExecutorGroup(
                        OFFLOAD_THREADS, new DefaultThreadFactory("rouse-bench-netty-handler", true))
                : null;
        connections = new DefaultChannelGroup(loop.next());
        try {
            server = new ServerBootstrap()
                    .group(loop)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, BACKLOG)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            connections.add(channel);
                            accepted.incrementAndGet();
                            channel.pipeline().addLast(new FixedLengthFrameDecoder(MESSAGE_BYTES));
                            if (handlers == null) {
                                channel.pipeline().addLast(echo);
                            } else {
                                channel.pipeline().addLast(handlers, echo);
                            }
                        }
                    })
                    .bind(EchoServer.anyLoopbackPort())
                    .sync()
                    .channel();
        } catch (InterruptedException | RuntimeException e) {
            shutdown();
            throw e;
        }
    }

    /** Writes every request back; the write releases the frame. */
    @ChannelHandler.Sharable
    private final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            context.writeAndFlush(message);
        }

        /** A client's reset (the storm scenario closes with linger 0) closes the connection quietly. */
        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            context.close();
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext context) {
            removed.release();
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public int openConnections() {
        return accepted.get() - removed.availablePermits();
    }

    @Override
    public void close() throws InterruptedException {
        server.close().sync();
        connections.close().sync();
        // a closed connection's last events still travel between the loop and the handler group: let them arrive
        // before either executor stops, or it refuses them (and Netty logs warnings)
        removed.tryAcquire(accepted.get(), 30, TimeUnit.SECONDS);
        shutdown();
    }

    private void shutdown() throws InterruptedException {
        loop.shutdownGracefully(QUIET_PERIOD_MS, 5_000, TimeUnit.MILLISECONDS);
        if (handlers != null) {
            handlers.shutdownGracefully(QUIET_PERIOD_MS, 5_000, TimeUnit.MILLISECONDS);
            handlers.awaitTermination(30, TimeUnit.SECONDS);
        }
        loop.awaitTermination(30, TimeUnit.SECONDS);
    }
}
