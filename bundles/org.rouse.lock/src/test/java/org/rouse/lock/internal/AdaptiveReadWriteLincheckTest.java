package org.rouse.lock.internal;

import org.rouse.lock.spi.ReadWritePrimitive;

/**
 * {@link ReadWriteLincheckModel}'s model check of the {@code adaptive} read-write primitive. Spinning is off and the
 * fairness bound 1 ns, so the interleavings cover queueing, parking and direct hand-offs (writers by the writers'
 * mutex, parked readers counted in by a writer's release); {@link AdaptiveReadWriteBargingLincheckTest} covers waking
 * and barging, {@link AdaptiveReadWriteSpinningLincheckTest} the spins (with barging; spinning together with direct
 * hand-offs is not model-checked).
 */
public class AdaptiveReadWriteLincheckTest extends ReadWriteLincheckModel {

    public AdaptiveReadWriteLincheckTest() {}

    @Override
    protected ReadWritePrimitive newLock() {
        return new AdaptiveReadWrite(this::tuning);
    }

    /** Spinning off, and a fairness bound of 1 ns: every release with threads parked is a direct hand-off. */
    protected AdaptiveTuning tuning() {
        return new AdaptiveTuning(0, 1L);
    }
}
