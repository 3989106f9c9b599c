package org.rouse.selector;

import org.osgi.annotation.versioning.ProviderType;
import org.rouse.stats.Percentiles;

/**
 * A snapshot of a selector view's counters and of the engine running the loop. View counters count since the view
 * was created; engine figures since the engine started.
 */
@ProviderType
public interface SelectorStatistics {

    /** Channels of this view registered now. */
    long registrations();

    /** Handler calls that have finished. */
    long upcalls();

    /** Handler calls that threw (each closed its channel). */
    long failedUpcalls();

    /** How long handlers ran (sampled). */
    Percentiles upcallDuration();

    /** Engine: wakeups requested by anyone. */
    long wakeupsRequested();

    /** Engine: wakeups actually written to the selector (at most one per select cycle). */
    long wakeupsWritten();

    /** The name of the engine running the loop, or {@code "none"} while no engine is available. */
    String engine();
}
