package org.rouse.api.internal.selector;

import org.rouse.selector.SelectorStatistics;
import org.rouse.stats.Percentiles;

/** An immutable snapshot of a view's counters and of the active engine's. */
record ViewStatistics(
        long registrations,
        long upcalls,
        long failedUpcalls,
        Percentiles upcallDuration,
        long wakeupsRequested,
        long wakeupsWritten,
        String engine)
        implements SelectorStatistics {}
