package org.rouse.benchmarks.lock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.locks.ReadWriteLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrimitiveReadWriteLockTest {

    @ParameterizedTest
    @ValueSource(strings = {"adaptive", "jdk"})
    void readersShareTheBarePrimitiveAndAWriterExcludesThem(String strategy) {
        ReadWriteLock lock = ReadWriteLocks.primitiveAlone(strategy);

        lock.readLock().lock();
        assertTrue(lock.readLock().tryLock(), "a second read hold (the primitive counts holds, not threads)");
        assertFalse(lock.writeLock().tryLock(), "no writer while reads are held");
        lock.readLock().unlock();
        lock.readLock().unlock();

        lock.writeLock().lock();
        assertFalse(lock.readLock().tryLock(), "no reader while written");
        lock.writeLock().unlock();
        assertTrue(lock.readLock().tryLock(), "free again");
        lock.readLock().unlock();
    }
}
