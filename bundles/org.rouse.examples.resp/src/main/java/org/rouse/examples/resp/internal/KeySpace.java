package org.rouse.examples.resp.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.function.BiPredicate;
import org.rouse.lock.LockStripes;

/**
 * The server's keys and string values, split into segments that the lock provider's stripes guard.
 *
 * <p>Implementation notes. Segment {@code i} is a plain {@link HashMap} read and written only while holding
 * {@code stripes.at(i)}; a key's segment is {@code floorMod(hash, size)}. Commands touching several keys ({@code
 * MGET}, {@code DEL}, {@code EXISTS}) take the distinct stripes they need in ascending index order and release them
 * in reverse, so they see one consistent moment (as Redis does) and two such commands can never deadlock. The lock
 * facades stay valid when the lock provider swaps its strategy, so the key space survives a lock engine update.
 */
final class KeySpace {

    /** Thrown by {@link #increment} for a value that is not a 64-bit integer, or an overflow. */
    static final class NotAnInteger extends Exception {
        private static final long serialVersionUID = 1L;

        NotAnInteger(String message) {
            super(message, null, false, false);
        }
    }

    private final LockStripes stripes;
    /** Segment i: guarded by {@code stripes.at(i)}. */
    private final Map<Key, byte[]>[] segments;

    @SuppressWarnings("unchecked")
    KeySpace(LockStripes stripes) {
        this.stripes = stripes;
        this.segments = new Map[stripes.size()];
        for (int i = 0; i < segments.length; i++) {
            segments[i] = new HashMap<>();
        }
    }

    /** Bytes compared by content: a map key. */
    record Key(byte[] bytes) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Arrays.equals(bytes, key.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    void set(byte[] key, byte[] value) {
        Key k = new Key(key);
        int index = segment(k);
        Lock lock = stripes.at(index);
        lock.lock();
        try {
            segments[index].put(k, value);
        } finally {
            lock.unlock();
        }
    }

    byte[] get(byte[] key) {
        Key k = new Key(key);
        int index = segment(k);
        Lock lock = stripes.at(index);
        lock.lock();
        try {
            return segments[index].get(k);
        } finally {
            lock.unlock();
        }
    }

    /** Adds one to the integer stored at {@code key} (0 if absent) and returns the new value. */
    long increment(byte[] key) throws NotAnInteger {
        Key k = new Key(key);
        int index = segment(k);
        Lock lock = stripes.at(index);
        lock.lock();
        try {
            byte[] old = segments[index].get(k);
            long value = old == null ? 0 : parseLong(old);
            if (value == Long.MAX_VALUE) {
                throw new NotAnInteger("increment or decrement would overflow");
            }
            value++;
            segments[index].put(k, Long.toString(value).getBytes(StandardCharsets.US_ASCII));
            return value;
        } finally {
            lock.unlock();
        }
    }

    /** The values of {@code keys} (null where absent), read at one moment. */
    byte[][] getAll(List<byte[]> keys) {
        Key[] k = keys(keys);
        byte[][] values = new byte[k.length][];
        boolean[] held = lockAll(k);
        try {
            for (int i = 0; i < k.length; i++) {
                values[i] = segments[segment(k[i])].get(k[i]);
            }
        } finally {
            unlockAll(held);
        }
        return values;
    }

    /** Removes {@code keys}; returns how many existed. */
    long removeAll(List<byte[]> keys) {
        return countLocked(keys, (segment, key) -> segment.remove(key) != null);
    }

    /** How many of {@code keys} exist, a key named twice counting twice (as in Redis). */
    long countExisting(List<byte[]> keys) {
        return countLocked(keys, Map::containsKey);
    }

    /** Applies {@code test} to each key in its segment with every stripe of {@code keys} held; counts the trues. */
    private long countLocked(List<byte[]> keys, BiPredicate<Map<Key, byte[]>, Key> test) {
        Key[] k = keys(keys);
        long count = 0;
        boolean[] held = lockAll(k);
        try {
            for (Key key : k) {
                if (test.test(segments[segment(key)], key)) {
                    count++;
                }
            }
        } finally {
            unlockAll(held);
        }
        return count;
    }

    private static Key[] keys(List<byte[]> keys) {
        Key[] k = new Key[keys.size()];
        for (int i = 0; i < k.length; i++) {
            k[i] = new Key(keys.get(i));
        }
        return k;
    }

    /** Locks the stripes of {@code keys} in ascending order; returns which are held. */
    private boolean[] lockAll(Key[] keys) {
        boolean[] held = new boolean[segments.length];
        for (Key key : keys) {
            held[segment(key)] = true;
        }
        int locked = 0;
        try {
            for (; locked < held.length; locked++) {
                if (held[locked]) {
                    stripes.at(locked).lock();
                }
            }
        } catch (RuntimeException | Error e) {
            for (int i = locked - 1; i >= 0; i--) {
                if (held[i]) {
                    stripes.at(i).unlock();
                }
            }
            throw e;
        }
        return held;
    }

    private void unlockAll(boolean[] held) {
        for (int i = held.length - 1; i >= 0; i--) {
            if (held[i]) {
                stripes.at(i).unlock();
            }
        }
    }

    private int segment(Key key) {
        return Math.floorMod(key.hashCode(), segments.length);
    }

    private static long parseLong(byte[] bytes) throws NotAnInteger {
        String text = new String(bytes, StandardCharsets.US_ASCII);
        if (text.isEmpty() || text.length() > 20 || text.startsWith("+") || text.startsWith("-0")) {
            throw new NotAnInteger("value is not an integer or out of range");
        }
        try {
            long value = Long.parseLong(text);
            if (text.length() > 1 && text.charAt(0) == '0') {
                throw new NotAnInteger("value is not an integer or out of range");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new NotAnInteger("value is not an integer or out of range");
        }
    }
}
