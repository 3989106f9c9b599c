package org.rouse.timer;

import java.time.Duration;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The consuming bundle's view of the timer dispatcher.
 *
 * <p>Each bundle that gets this service gets its own view: the owners and timers created through it belong to that
 * bundle, are invisible to every other bundle, and are cancelled when the bundle releases the service. See the
 * {@linkplain org.rouse.timer package documentation} for the full contract and an example.
 */
@ProviderType
public interface TimerService {

    /**
     * Returns this view's owner with the given name, creating it if needed. Calling it twice with the same name
     * returns the same owner until that owner is {@linkplain TimerOwner#close() closed}.
     *
     * @param name a non-empty name, used in logs and statistics
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty
     * @throws IllegalStateException if this view has been released
     */
    TimerOwner owner(String name);

    /** The shortest period a periodic timer may have now; shorter requests are clamped to it. */
    Duration minimumInterval();

    /** A snapshot of this view's timers and of the engine that runs them. */
    TimerStatistics statistics();
}
