/**
 * The Rouse selector wakeup service: a shared NIO loop whose handlers run on a worker pool and whose channels are
 * re-armed, and the loop woken, the moment a handler returns.
 *
 * <p>A consumer binds to {@link org.rouse.selector.SelectorService} (each bundle gets its own view) and registers
 * non-blocking channels with a {@link org.rouse.selector.ChannelHandler}:
 *
 * <pre>{@code
 * @Component
 * public class EchoServer {
 *     @Reference
 *     private SelectorService selector;
 *     private ChannelRegistration acceptor;
 *
 *     @Activate
 *     void start() throws IOException {
 *         ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 7000));
 *         server.configureBlocking(false);
 *         acceptor = selector.accept(server, SelectionKey.OP_READ, connection -> (registration, readyOps) -> {
 *             ByteBuffer buffer = ByteBuffer.allocate(4096);
 *             SocketChannel channel = (SocketChannel) registration.channel();
 *             if (channel.read(buffer) < 0) {
 *                 registration.close();
 *                 return;
 *             }
 *             buffer.flip();
 *             channel.write(buffer);
 *         });
 *     }
 *
 *     @Deactivate
 *     void stop() {
 *         acceptor.close();
 *     }
 * }
 * }</pre>
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Threads.</b> Every method may be called from any thread, including from inside a handler. Changes of
 *       interest operations, suspension and cancellation take effect at once: the loop is woken if it is blocked.
 *       When {@link org.rouse.selector.ChannelRegistration#cancel()} returns, the channel has left every selector
 *       of the service and may be put into blocking mode (the few cases where waiting could deadlock are listed
 *       there, with {@link org.rouse.selector.ChannelRegistration#deregister()} to learn when they complete).
 *   <li><b>Upcalls.</b> With {@link org.rouse.selector.Dispatch#POOL} (the default) a handler runs off the
 *       selecting thread (on a worker, or on the loop thread that found it ready once another thread selects in its
 *       place) and its channel is not selected again until the handler returns, so one channel never has two
 *       upcalls at once; when it returns the channel is re-armed with its current interest operations and the
 *       loop woken (coalesced: at most one wakeup per select cycle). With {@link org.rouse.selector.Dispatch#INLINE}
 *       the handler runs on the loop thread and must not block.
 *   <li><b>Bad input.</b> A {@code null}, closed or blocking-mode channel, interest operations the channel does not
 *       support, or a channel this service already has: a clear exception, and nothing is registered.
 *   <li><b>Faults.</b> A handler that throws is logged with its channel; that channel is deregistered and closed and
 *       {@link org.rouse.selector.ChannelHandler#onClosed} tells the handler why. Every other channel is unaffected.
 *   <li><b>Isolation and clean-up.</b> Registrations live in the consuming bundle's view: no bundle can see or
 *       change another's. When the consuming bundle stops, its registrations are cancelled and their channels
 *       closed.
 *   <li><b>Hot swap.</b> When the selector engine is updated, replaced or reconfigured, channels move to the new
 *       engine without being closed, and an upcall in flight re-arms into the new engine.
 * </ul>
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.rouse.selector;
