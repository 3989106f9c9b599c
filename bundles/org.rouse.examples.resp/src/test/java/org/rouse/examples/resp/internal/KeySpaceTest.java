package org.rouse.examples.resp.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rouse.api.internal.lock.LockFrontCore;

class KeySpaceTest {

    private final KeySpace keys =
            new KeySpace(new LockFrontCore().newView("test").stripes("keyspace", 4));

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void setGetDeleteExists() throws Exception {
        keys.set(b("a"), b("1"));
        keys.set(b("b"), b("2"));
        assertArrayEquals(b("1"), keys.get(b("a")));
        assertEquals(3, keys.countExisting(List.of(b("a"), b("a"), b("b"), b("c"))));
        byte[][] values = keys.getAll(List.of(b("a"), b("c"), b("b")));
        assertArrayEquals(b("1"), values[0]);
        assertNull(values[1]);
        assertArrayEquals(b("2"), values[2]);
        assertEquals(2, keys.removeAll(List.of(b("a"), b("b"), b("c"))));
        assertNull(keys.get(b("a")));
        assertEquals(1, keys.increment(b("a")));
    }

    @Test
    void incrementRejectsWhatIsNotA64BitInteger() {
        for (String bad : List.of("x", "", "1.5", "+1", "01", "-0", "99999999999999999999", " 1")) {
            keys.set(b("k"), b(bad));
            assertThrows(KeySpace.NotAnInteger.class, () -> keys.increment(b("k")), bad);
        }
        keys.set(b("k"), b(Long.toString(Long.MAX_VALUE)));
        assertThrows(KeySpace.NotAnInteger.class, () -> keys.increment(b("k")));
        keys.set(b("k"), b("-5"));
        assertEquals(-4, assertIncrements("k"));
    }

    private long assertIncrements(String key) {
        try {
            return keys.increment(b(key));
        } catch (KeySpace.NotAnInteger e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Timeout(60)
    void concurrentIncrementsAndMultiKeyReadsAreAtomic() throws Exception {
        int threads = 8;
        int rounds = 5_000;
        List<byte[]> all = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            all.add(b("counter-" + i));
        }
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        keys.increment(all.get(i % all.size()));
                        if (i % 100 == 0) {
                            keys.getAll(all); // takes several stripes in order while others increment: no deadlock
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
        long total = 0;
        for (byte[] value : keys.getAll(all)) {
            total += Long.parseLong(new String(value, StandardCharsets.US_ASCII));
        }
        assertEquals((long) threads * rounds, total, "no increment lost");
    }
}
