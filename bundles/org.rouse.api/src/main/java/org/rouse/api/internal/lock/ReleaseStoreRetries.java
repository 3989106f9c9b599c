package org.rouse.api.internal.lock;

/**
 * A swapper's retries of a primitive whose tryLock failed although a release store of its holder may already be in
 * flight (LockFacade notes, 4): at least {@link LockFacade#RELEASE_STORE_MIN_RETRIES} more tries, and for at least
 * {@link LockFacade#RELEASE_STORE_RETRY_NANOS}, each after a spin-wait. One per helping call, made at its first failure.
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

    /** When the first try failed ({@code System.nanoTime()}); written by the one helping thread. */
    private final long firstFailure = System.nanoTime();
    /** Failed tries so far; written by the one helping thread. */
    private int failures;

    /** Counts a failed try; returns true, after a spin-wait, if the caller should try again. */
    boolean another() {
        failures++;
        if (failures <= LockFacade.RELEASE_STORE_MIN_RETRIES
                || System.nanoTime() - firstFailure < LockFacade.RELEASE_STORE_RETRY_NANOS) {
            Thread.onSpinWait();
            return true;
        }
        return false;
    }
}
