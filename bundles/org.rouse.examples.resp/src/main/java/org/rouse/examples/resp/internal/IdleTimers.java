package org.rouse.examples.resp.internal;

import java.time.Duration;

/** Runs a task once after a delay; the server uses it for idle timeouts (the timer service in the runtime). */
@FunctionalInterface
interface IdleTimers {

    /** Cancels a task scheduled by {@link IdleTimers#after}. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }

    /**
     * Runs {@code task} once, {@code delay} from now, on some other thread.
     *
     * @throws RuntimeException if the task cannot be scheduled (the caller closes the connection)
     */
    Cancellable after(Duration delay, Runnable task);
}
