package org.rouse.selector.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.selector.BundleSelectorView;
import org.rouse.selector.spi.SelectorEngine;
import org.rouse.selector.spi.SelectorEntry;

/**
 * A register that read the active engine before a swap, attaches to it after the swap's drain and is held until that
 * engine has shut down: the channel must end up selected by the new engine.
 */
class AttachSwapRaceTest {

    private final Rig rig = new Rig();

    @AfterEach
    void tearDown() throws Exception {
        rig.close();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aChannelAttachedToAnEngineThatIsDrainedAndThenShutDownIsStillSelected() throws Exception {
        NioSelectorEngine old = rig.engine(Rig.settings(600_000, true));
        NioSelectorEngine next = rig.engine(Rig.settings(600_000, true));
        GatedEngine gated = new GatedEngine(old);
        rig.core.swapTo(gated);
        BundleSelectorView view = rig.view();
        ServerSocketChannel server = rig.server();
        SocketChannel client = rig.connect(server);
        SocketChannel accepted = acceptBlocking(server);
        accepted.configureBlocking(false);

        CountDownLatch served = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        gated.holdNextAttach();
        Thread registrar = new Thread(
                () -> {
                    try {
                        view.register(accepted, SelectionKey.OP_READ, (registration, readyOps) -> {
                            if (accepted.read(ByteBuffer.allocate(16)) > 0) {
                                served.countDown();
                            }
                        });
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                },
                "registrar");
        registrar.start();

        assertTrue(gated.reached.await(10, TimeUnit.SECONDS), "the registrar never reached the old engine");
        rig.core.swapTo(next); // drains the old engine: still empty, the registrar has not attached yet
        gated.proceed.countDown(); // the registrar attaches to the drained (and so accepting) old engine
        assertTrue(gated.attached.await(10, TimeUnit.SECONDS), "the registrar never attached");
        old.shutdown(); // the old engine shuts down with the registrar's channel attached
        gated.resume.countDown(); // the registrar sees the swap and finds its entry gone from the old engine
        registrar.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(null, failure.get(), "register failed");

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertEquals(1, channels(next), "channels the new engine selects"));
        client.write(ByteBuffer.wrap(new byte[] {42}));
        assertTrue(served.await(10, TimeUnit.SECONDS), "the channel registered across the swap is never selected");
    }

    private static long channels(NioSelectorEngine engine) {
        Map<String, Long> counters = engine.counters();
        return counters.getOrDefault("channels", -1L);
    }

    private static SocketChannel acceptBlocking(ServerSocketChannel server) throws Exception {
        server.configureBlocking(true);
        try {
            return server.accept();
        } finally {
            server.configureBlocking(false);
        }
    }

    /** Delegates to a real engine, but holds the next attach before and after it reaches that engine. */
    static final class GatedEngine implements SelectorEngine {
        final SelectorEngine delegate;
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        final CountDownLatch attached = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        private final AtomicBoolean hold = new AtomicBoolean();

        GatedEngine(SelectorEngine delegate) {
            this.delegate = delegate;
        }

        void holdNextAttach() {
            hold.set(true);
        }

        @Override
        public String name() {
            return "gated-" + delegate.name();
        }

        @Override
        public boolean attach(SelectorEntry entry) {
            if (!hold.compareAndSet(true, false)) {
                return delegate.attach(entry);
            }
            reached.countDown();
            awaitUninterruptibly(proceed);
            boolean accepted = delegate.attach(entry);
            attached.countDown();
            awaitUninterruptibly(resume);
            return accepted;
        }

        @Override
        public void update(SelectorEntry entry) {
            delegate.update(entry);
        }

        @Override
        public boolean detach(SelectorEntry entry) {
            return delegate.detach(entry);
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
        public List<SelectorEntry> drain() {
            return delegate.drain();
        }

        @Override
        public long wakeupsRequested() {
            return delegate.wakeupsRequested();
        }

        @Override
        public long wakeupsWritten() {
            return delegate.wakeupsWritten();
        }

        private static void awaitUninterruptibly(CountDownLatch latch) {
            boolean interrupted = false;
            for (; ; ) {
                try {
                    latch.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
