package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.rouse.lock.LockService;
import org.rouse.selector.ChannelRegistration;
import org.rouse.selector.SelectorService;

/** The lock and selector providers can be stopped and updated while consumers use them. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class LockAndSelectorSwapIT extends RouseTestSupport {

    @Inject
    LockService locks;

    @Inject
    SelectorService selector;

    @Test
    public void lockProviderUpdateUnderContentionNeverAdmitsTwoThreads() throws Exception {
        Lock lock = locks.lock("swap-it");
        LockHammer hammer = LockHammer.start(lock, 8, "lock-swap-it");
        try {
            Bundle provider = bundle("org.rouse.lock");
            long before = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > before + 1000);
            provider.stop();
            long stopped = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> hammer.acquisitions() > stopped + 1000); // fallback mutex
            provider.start();
            updateFromJar(provider);
            long updated = hammer.acquisitions();
            await().atMost(Duration.ofSeconds(10)).until(() -> hammer.acquisitions() > updated + 1000);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> locks.strategies().contains("jdk"));
        } finally {
            hammer.stop();
        }
        assertEquals("two threads held the lock at once", 0, hammer.violations());
    }

    @Test
    public void selectorProviderUpdateKeepsConnectionsAndCallsWorking() throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        server.configureBlocking(false);
        ChannelRegistration acceptor = selector.accept(server, SelectionKey.OP_READ, connection -> (reg, ops) -> {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            if (connection.read(buffer) < 0) {
                reg.close();
                return;
            }
            buffer.flip();
            while (buffer.hasRemaining()) {
                connection.write(buffer);
            }
        });
        AtomicLong calls = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch clientsDone = new CountDownLatch(4);
        for (int i = 0; i < 4; i++) {
            new Thread(
                            () -> {
                                try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
                                    ByteBuffer out = ByteBuffer.allocate(1);
                                    ByteBuffer in = ByteBuffer.allocate(1);
                                    while (running.get()) {
                                        out.clear().put((byte) 42).flip();
                                        client.write(out);
                                        in.clear();
                                        if (client.read(in) != 1 || in.get(0) != 42) {
                                            throw new IOException("bad echo");
                                        }
                                        calls.incrementAndGet();
                                    }
                                } catch (Throwable t) {
                                    failure.compareAndSet(null, t);
                                } finally {
                                    clientsDone.countDown();
                                }
                            },
                            "selector-swap-it-" + i)
                    .start();
        }
        try {
            Bundle provider = bundle("org.rouse.selector");
            long before = calls.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> calls.get() > before + 200);
            provider.stop();
            provider.start();
            updateFromJar(provider);
            long updated = calls.get();
            await().atMost(Duration.ofSeconds(20)).until(() -> calls.get() > updated + 200 || failure.get() != null);
            assertTrue("the server channel survived the swaps", server.isOpen() && acceptor.isValid());
        } finally {
            running.set(false);
            assertTrue(clientsDone.await(20, TimeUnit.SECONDS));
            acceptor.close();
        }
        assertEquals("no call failed across the swap", null, failure.get());
    }
}
