package org.rouse.lock;

import org.osgi.annotation.versioning.ConsumerType;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A lock shared by several processes (a cluster lock) whose every grant carries a <em>fencing token</em>, and whose
 * hold can be lost without an {@code unlock()}: when the connection to the coordination service is suspended or the
 * session is lost, another process may be granted the lock after the session times out.
 *
 * <p>A holder passes {@link #fencingToken()} along with every write to a shared resource; the resource rejects a
 * token lower than the highest it has accepted, so a holder that lost the lock without noticing (a long pause, a
 * partition) cannot overwrite the work of a later holder. {@link #isValid()} turns {@code false}, and the
 * {@linkplain #addLossListener(LossListener) loss listeners} are called, as soon as this process learns that its hold
 * may be lost; the hold stays invalid even if the connection comes back, so the holder unlocks and locks again to get
 * a valid hold and a new token.
 *
 * <pre>{@code
 * FencedLock lock = (FencedLock) locks.lock("cluster.billing");   // a name the cluster bundle is configured for
 * lock.lock();
 * try {
 *     long token = lock.fencingToken();
 *     store.write(token, record);                 // the store rejects a token lower than the last it accepted
 *     if (!lock.isValid()) {
 *         // the hold may be lost: stop working under it
 *     }
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 *
 * <p>Guarantees: tokens grow strictly with every grant of the same lock across the cluster (a reentrant acquisition
 * keeps its token). A hold's validity is judged without comparing clocks: this process declares the hold invalid when
 * its connection is suspended, which the coordination client does before the session can time out on the server, so
 * before another process can be granted the lock; that bound is the session timeout, and it holds only while this
 * process is not paused longer than that. The fencing token is what protects a resource against a paused holder.
 * Cluster locks have no conditions ({@code newCondition()} throws {@link UnsupportedOperationException}).
 *
 * @since 1.3
 */
@ProviderType
public interface FencedLock extends SwappableLock {

    /**
     * The fencing token of the calling thread's hold: a number larger than that of every earlier grant of this lock
     * anywhere in the cluster.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold this lock
     */
    long fencingToken();

    /**
     * Whether the calling thread holds this lock and its hold has not been lost: {@code false} once this process's
     * connection to the coordination service was suspended or its session lost during or after the acquisition.
     */
    boolean isValid();

    /**
     * Calls {@code listener} once for each hold of this lock (by any thread of this process) that becomes invalid;
     * it runs on the coordination client's event thread, so it must not block. When the provider itself stops (its
     * bundle is stopped or updated, or the cluster configuration removed), every hold is lost at once and the
     * listeners run on the thread that stops it, which may be a holder's own: a listener that waits for the holder
     * to unlock would then wait for itself.
     *
     * @throws NullPointerException if {@code listener} is null
     */
    void addLossListener(LossListener listener);

    /** Removes a listener added by {@link #addLossListener(LossListener)}; unknown listeners are ignored. */
    void removeLossListener(LossListener listener);

    /**
     * Told that a hold of a {@link FencedLock} became invalid.
     *
     * @since 1.3
     */
    @ConsumerType
    @FunctionalInterface
    interface LossListener {

        /**
         * The hold with {@code fencingToken} of {@code lock}, by {@code holder}, is no longer valid.
         *
         * @param lock the lock
         * @param holder the thread that holds (or held) it
         * @param fencingToken the token of the lost hold
         */
        void lost(FencedLock lock, Thread holder, long fencingToken);
    }
}
