package org.rouse.lock.internal;

import java.util.concurrent.TimeUnit;

/**
 * {@link AdaptiveReadWriteLincheckTest}'s model check with the fairness timers an hour away: every release wakes
 * instead of handing over, so the interleavings cover woken readers and writers competing with running ones
 * (barging), woken readers losing to a writer and parking again, and a writer waiting for readers to leave.
 */
public class AdaptiveReadWriteBargingLincheckTest extends AdaptiveReadWriteLincheckTest {

    public AdaptiveReadWriteBargingLincheckTest() {}

    @Override
    protected AdaptiveTuning tuning() {
        return new AdaptiveTuning(0, TimeUnit.HOURS.toNanos(1));
    }
}
