package org.rouse.selector.internal;

import java.util.concurrent.TimeUnit;

/**
 * Recognizes the epoll spin bug (JDK-6670302, JDK-6403933; Netty's {@code SELECTOR_AUTO_REBUILD_THRESHOLD}): a
 * selector whose {@code select} keeps returning at once with nothing selected although nobody woke it and its
 * timeout has not passed, so the loop burns a core.
 */
final class SpinDetector {

    /*
     * Implementation notes.
     *
     * Sources. Netty's selector auto-rebuild (io.netty.selectorAutoRebuildThreshold), see SelectLoop.
     *
     * Algorithm. Counts consecutive premature selects: zero keys selected, no wakeup written for this select, and (with
     * a timeout) returning before it elapsed. Any other select resets the count; reaching threshold asks for a rebuild
     * and resets it. Loop thread only.
     */

    /** Netty's default: 512 premature selects in a row. */
    static final int DEFAULT_THRESHOLD = 512;

    private final int threshold;
    /** Premature selects in a row; loop thread only. */
    private int consecutive;

    SpinDetector(int threshold) {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be positive: " + threshold);
        }
        this.threshold = threshold;
    }

    /**
     * Records one completed select.
     *
     * @param selected keys the select reported
     * @param woken whether a wakeup was written for this select
     * @param elapsedNanos how long the select took
     * @param timeoutMs the select's timeout, 0 for none
     * @return whether the selector should be rebuilt now
     */
    boolean spun(int selected, boolean woken, long elapsedNanos, long timeoutMs) {
        boolean premature =
                selected == 0 && !woken && (timeoutMs == 0 || elapsedNanos < TimeUnit.MILLISECONDS.toNanos(timeoutMs));
        if (!premature) {
            consecutive = 0;
            return false;
        }
        if (++consecutive < threshold) {
            return false;
        }
        consecutive = 0;
        return true;
    }
}
