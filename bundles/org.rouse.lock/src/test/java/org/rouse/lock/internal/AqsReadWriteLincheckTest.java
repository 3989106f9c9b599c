package org.rouse.lock.internal;

import org.rouse.lock.spi.AqsReadWrite;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * {@link ReadWriteLincheckModel}'s model check of the {@code jdk} read-write primitive, {@link AqsReadWrite}; a lost wake-up here would be a deadlock between the readers' rule for a writer waiting at the head of
 * the queue and the AQS queue itself.
 */
public class AqsReadWriteLincheckTest extends ReadWriteLincheckModel {

    public AqsReadWriteLincheckTest() {}

    @Override
    protected ReadWritePrimitive newLock() {
        return new AqsReadWrite("jdk");
    }
}
