package org.rouse.timer;

/** The life cycle of a {@link Timer}. */
public enum TimerState {
    /** Waiting for its deadline. */
    SCHEDULED,
    /** Due: its event is queued for, or running in, its owner. A periodic timer returns to {@link #SCHEDULED}. */
    RUNNING,
    /** A one-shot timer whose handler has run. */
    FIRED,
    /** Cancelled by {@link Timer#cancel()}, by closing its owner or by its bundle releasing the service. */
    CANCELLED
}
