package org.rouse.lock.internal;

import java.util.concurrent.TimeUnit;
import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * {@link AdaptiveReadWriteLincheckTest}'s model check with spinning on and the fairness timers an hour away: a writer
 * that finds readers inside spins with the lock open (and may take it there when the word reads 0), then closed; a
 * reader spins for a writer, and stops when the writer parks draining. The word's bounds are 2 spins each, so the
 * interleavings reach both exits of every spin (the lock taken, the bound reached) within small scenarios.
 */
public class AdaptiveReadWriteSpinningLincheckTest extends AdaptiveReadWriteLincheckTest {

    public AdaptiveReadWriteSpinningLincheckTest() {}

    @Override
    protected ReadWritePrimitive newLock() {
        return new AdaptiveReadWrite(this::tuning, 2, 2, 2);
    }

    @Override
    protected AdaptiveTuning tuning() {
        return new AdaptiveTuning(2, TimeUnit.HOURS.toNanos(1));
    }
}
