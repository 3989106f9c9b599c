package org.rouse.api.internal.timer;

/**
 * What a timer firing records for the statistics and the health check: one sample into its bundle's
 * {@link LatenessHistogram} ({@code TimerHandle.run}), for {@code JfrEventCost}. Lives in the benchmarks in the
 * timer front's package because the histogram is package-private there.
 */
public final class FireLatenessProbe {

    private final LatenessHistogram perView = new LatenessHistogram();

    /** Records {@code latenessNanos} as a handler start does. */
    public void record(long latenessNanos) {
        perView.record(latenessNanos);
    }

    /** How many samples were recorded (drains the recorder; not for the measured path). */
    public long count() {
        return perView.snapshot().count();
    }
}
