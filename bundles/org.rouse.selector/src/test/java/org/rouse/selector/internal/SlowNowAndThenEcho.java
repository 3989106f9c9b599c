package org.rouse.selector.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;
import org.rouse.selector.ChannelRegistration;

/**
 * Echoes 8-byte requests and counts them; every {@code every}-th request runs {@code slowWork} inside its upcall first
 * (blocking or busy work, never a wait for a result). Counts upcalls of its channel that overlapped.
 */
final class SlowNowAndThenEcho extends Rig.Echo {
    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    final AtomicInteger calls = new AtomicInteger();
    private final int every;
    private final Runnable slowWork;

    SlowNowAndThenEcho(int every, Runnable slowWork) {
        this.every = every;
        this.slowWork = slowWork;
    }

    @Override
    public void onReady(ChannelRegistration registration, int readyOps) throws IOException {
        if (inside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        try {
            SocketChannel channel = (SocketChannel) registration.channel();
            ByteBuffer request = ByteBuffer.allocate(8);
            if (channel.read(request) < 0) {
                registration.close();
                return;
            }
            if (request.position() < 8) {
                return; // the rest of the request comes with the next upcall (Rig.call writes 8 bytes at once)
            }
            if (calls.incrementAndGet() % every == 0) {
                slowWork.run();
            }
            request.flip();
            while (request.hasRemaining()) {
                channel.write(request);
            }
        } finally {
            inside.decrementAndGet();
        }
    }
}
