package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
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
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.lock.LockService;
import org.rouse.lock.SwappableLock;
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

    @Inject
    ConfigurationAdmin configAdmin;

    private static final String ENGINE_PID = "org.rouse.selector.engine";

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

    /**
     * A thread that holds a lock (and a reentrant hold of it) updates the lock provider bundle: the front asks every
     * facade to swap, which for a held lock only records the request. The update must not wait for the holder, the
     * hold must stay exclusive across it, and the holder's final unlock performs the swap.
     */
    @Test
    public void aLockHolderThatUpdatesTheLockProviderKeepsItsHoldAndSwapsAtItsUnlock() throws Exception {
        SwappableLock lock = locks.lock("self-update-it");
        Bundle provider = bundle("org.rouse.lock");
        lock.lock();
        lock.lock();
        long swapsBefore = lock.statistics().swaps();
        long start = System.nanoTime();
        try (InputStream in = Files.newInputStream(
                RouseOptions.jar(provider.getSymbolicName()).toPath())) {
            provider.update(in);
        }
        long updateNanos = System.nanoTime() - start;
        AtomicBoolean otherGotIt = new AtomicBoolean();
        Thread other = new Thread(() -> otherGotIt.set(lock.tryLock()), "lock-self-update-other");
        other.start();
        other.join(10_000);
        assertTrue(
                "the update waited for the lock's holder: " + updateNanos + " ns",
                updateNanos < TimeUnit.SECONDS.toNanos(5));
        assertTrue("still held by this thread across the update", !otherGotIt.get());
        assertEquals("no swap while held", swapsBefore, lock.statistics().swaps());
        lock.unlock();
        assertEquals("nor at an inner unlock", swapsBefore, lock.statistics().swaps());
        lock.unlock();
        assertTrue("the final unlock swapped", lock.statistics().swaps() > swapsBefore);
        refresh(provider);
        await().atMost(Duration.ofSeconds(10)).until(() -> locks.strategies().contains("jdk"));
        CountDownLatch acquired = new CountDownLatch(1);
        Thread after = new Thread(
                () -> {
                    if (lock.tryLock()) {
                        lock.unlock();
                        acquired.countDown();
                    }
                },
                "lock-self-update-after");
        after.start();
        assertTrue("free again after the holder's unlock", acquired.await(10, TimeUnit.SECONDS));
    }

    /**
     * An operator command served over a connection updates the selector provider from inside its upcall: the
     * framework then deactivates the engine and the front swaps, all on that upcall's thread, here the loop thread
     * (the default take-over). Neither may wait for the upcall that called them; the reply written after the update
     * goes out, and the next call on the same connection is served by the new engine.
     */
    @Test
    public void aHandlerThatUpdatesTheSelectorProviderFromItsUpcallOnTheLoopGetsItsReplyOut() throws Exception {
        updateFromInsideAnUpcall("rouse-selector-loop-");
    }

    /**
     * As above with every pool upcall on a worker ({@code loop.handover=false}): before, the engine's shutdown waited
     * 10 s for the very worker that called it and then interrupted it.
     */
    @Test
    public void aHandlerThatUpdatesTheSelectorProviderFromItsUpcallOnAWorkerGetsItsReplyOut() throws Exception {
        Configuration engineConfig = configAdmin.getConfiguration(ENGINE_PID, "?");
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("loop.handover", false);
        engineConfig.update(properties);
        try {
            updateFromInsideAnUpcall("rouse-selector-worker-");
        } finally {
            engineConfig.delete();
        }
    }

    private void updateFromInsideAnUpcall(String upcallThreadPrefix) throws Exception {
        Bundle provider = bundle("org.rouse.selector");
        AtomicReference<String> updateThread = new AtomicReference<>();
        AtomicLong updateNanos = new AtomicLong(-1);
        AtomicReference<Throwable> updateFailure = new AtomicReference<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        server.configureBlocking(false);
        ChannelRegistration acceptor = selector.accept(server, SelectionKey.OP_READ, connection -> (reg, ops) -> {
            ByteBuffer buffer = ByteBuffer.allocate(1);
            if (connection.read(buffer) < 0) {
                reg.close();
                return;
            }
            if (buffer.get(0) == 'U' && !Thread.currentThread().getName().startsWith(upcallThreadPrefix)) {
                buffer.put(0, (byte) 'n'); // not on the thread this case is about (yet): the client asks again
            } else if (buffer.get(0) == 'U') {
                updateThread.set(Thread.currentThread().getName());
                long start = System.nanoTime();
                try (InputStream in = Files.newInputStream(
                        RouseOptions.jar(provider.getSymbolicName()).toPath())) {
                    provider.update(in); // no refresh: waiting for one from here would wait for this very upcall
                } catch (Throwable t) {
                    updateFailure.set(t);
                }
                updateNanos.set(System.nanoTime() - start);
                interrupted.set(Thread.currentThread().isInterrupted());
            }
            buffer.flip();
            while (buffer.hasRemaining()) {
                connection.write(buffer);
            }
        });
        try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            assertEquals('a', call(client, 'a'));
            // the reply written after the update arrives; until the upcall lands on the thread this case is about
            // (a new configuration applies after a moment), the handler answers 'n' without updating
            await("an update from an upcall on " + upcallThreadPrefix + "*")
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> call(client, 'U') == 'U');
            assertTrue(
                    "the update ran on " + updateThread.get(),
                    updateThread.get().startsWith(upcallThreadPrefix));
            assertEquals(null, updateFailure.get());
            assertTrue(
                    "the update waited for the upcall that made it: " + updateNanos.get() + " ns",
                    updateNanos.get() < TimeUnit.SECONDS.toNanos(5));
            assertTrue("the update interrupted the upcall that made it", !interrupted.get());
            assertEquals("the connection goes on with the new engine", 'b', call(client, 'b'));
            assertTrue("the server channel survived the update", server.isOpen() && acceptor.isValid());
        } finally {
            acceptor.close();
            server.close();
            refresh(provider);
        }
    }

    private static char call(SocketChannel client, char request) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(1).put((byte) request).flip();
        while (out.hasRemaining()) {
            client.write(out);
        }
        ByteBuffer in = ByteBuffer.allocate(1);
        if (client.read(in) != 1) {
            throw new IOException("no reply to " + request);
        }
        return (char) in.get(0);
    }
}
