package org.rouse.api.internal.lock;

/**
 * A swapper's retries of a primitive whose tryLock failed although a release store of its holder may already be in
 * flight (LockFacade notes, 4): at least {@link #MIN_RETRIES} more tries, and for at least {@link #MIN_NANOS}, each
 * after a spin-wait. One per helping call, made at its first failure; used by both facades' swappers.
 *
 * <pre>{@code
 * ReleaseStoreRetries retries = null;
 * while (!p.tryLock()) {
 *     if (retries == null) {
 *         retries = new ReleaseStoreRetries();
 *     }
 *     if (!retries.another()) {
 *         return; // the holder's release performs the swap
 *     }
 * }
 * }</pre>
 */
final class ReleaseStoreRetries {

    /** The fewest tries after the first failure before the swap is left to the holder. */
    static final int MIN_RETRIES = 16;

    /** The shortest time the tries go on: 20 µs, thousands of times what a store takes to become visible. */
    static final long MIN_NANOS = 20_000L;

    /** When the first try failed ({@code System.nanoTime()}); written by the one helping thread. */
    private final long firstFailure = System.nanoTime();
    /** Failed tries so far; written by the one helping thread. */
    private int failures;

    /** Counts a failed try; returns true, after a spin-wait, if the caller should try again. */
    boolean another() {
        failures++;
        if (failures <= MIN_RETRIES || System.nanoTime() - firstFailure < MIN_NANOS) {
            Thread.onSpinWait();
            return true;
        }
        return false;
    }
}
