package org.rouse.timer;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * What a timer runs when it falls due. Implemented by consumers.
 *
 * <p>A handler runs on the provider's worker pool, never concurrently with another handler of the same owner. If it
 * throws anything ({@link Error}s included), the throwable is logged with the owner and timer and counted, and the
 * timer goes on.
 */
@ConsumerType
@FunctionalInterface
public interface TimerHandler {

    /**
     * Handles one event.
     *
     * @param event the timer and how late this event is; valid while this call runs (see {@link TimerEvent})
     * @throws Exception anything; it is logged and counted and does not stop the timer
     */
    void onTimer(TimerEvent event) throws Exception;
}
