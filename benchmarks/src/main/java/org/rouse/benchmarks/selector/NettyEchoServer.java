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
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Netty NIO with one event loop thread ({@code rouse-bench-netty-loop-*}, like Rouse's one loop) that accepts and
 * frames the requests; the echo handler runs either inline on the loop or offloaded to a
 * {@link DefaultEventExecutorGroup} ({@code rouse-bench-netty-handler-*}), Netty's own answer to "do not block the
 * event loop", whose reply is handed back to the loop as a task.
 */
final class NettyEchoServer implements EchoServer {

    /** Threads of the offload group: each connection is pinned to one of them. */
    static final int OFFLOAD_THREADS = 16;

    private static final ChannelHandler ECHO = new Echo();

    private final EventLoopGroup loop;
    private final EventExecutorGroup handlers;
    private final Channel server;

    /** @param offload run the echo handler on a {@link DefaultEventExecutorGroup} rather than on the loop */
    NettyEchoServer(boolean offload) throws InterruptedException {
        loop = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("rouse-bench-netty-loop", true), NioIoHandler.newFactory());
        handlers = offload
                ? new DefaultEventExecutorGroup(
                        OFFLOAD_THREADS, new DefaultThreadFactory("rouse-bench-netty-handler", true))
                : null;
        try {
            server = new ServerBootstrap()
                    .group(loop)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, BACKLOG)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(new FixedLengthFrameDecoder(MESSAGE_BYTES));
                            if (handlers == null) {
                                channel.pipeline().addLast(ECHO);
                            } else {
                                channel.pipeline().addLast(handlers, ECHO);
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
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            context.writeAndFlush(message);
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() throws InterruptedException {
        server.close().sync(); // connections are closed by the loop's shutdown
        shutdown();
    }

    private void shutdown() throws InterruptedException {
        // the loop first: closing its channels still delivers their last events to the handler group
        loop.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        loop.awaitTermination(30, TimeUnit.SECONDS);
        if (handlers != null) {
            handlers.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            handlers.awaitTermination(30, TimeUnit.SECONDS);
        }
    }
}
