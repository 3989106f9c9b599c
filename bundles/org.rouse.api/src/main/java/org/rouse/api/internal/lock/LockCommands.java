package org.rouse.api.internal.lock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.rouse.stats.Percentiles;

/**
 * The Gogo command {@code rouse:locks}: the provider's totals and its most contended locks. Registered by
 * {@link LockFront} as a plain service object with {@code osgi.command.scope=rouse} and
 * {@code osgi.command.function=locks}, so the API bundle needs no Gogo import.
 *
 * <pre>{@code
 * g! rouse:locks        // the 10 most contended locks
 * g! rouse:locks 50
 * }</pre>
 */
public final class LockCommands {

    private static final int DEFAULT_TOP = 10;

    private final LockFrontCore core;

    LockCommands(LockFrontCore core) {
        this.core = core;
    }

    /** The totals and the 10 most contended locks. */
    public String locks() {
        return locks(DEFAULT_TOP);
    }

    /**
     * The totals and the {@code top} most contended locks (by contended acquisitions, then acquisitions).
     *
     * @throws IllegalArgumentException if {@code top} is negative
     */
    public String locks(int top) {
        if (top < 0) {
            throw new IllegalArgumentException("top must be >= 0: " + top);
        }
        List<LockFrontCore.LockSnapshot> all = new ArrayList<>(core.snapshot());
        LockCounts total = LockCounts.ZERO;
        for (LockFrontCore.LockSnapshot lock : all) {
            total = total.plus(lock.statistics());
        }
        all.sort(Comparator.comparingLong(
                        (LockFrontCore.LockSnapshot l) -> l.statistics().contendedAcquisitions())
                .thenComparingLong(l -> l.statistics().acquisitions())
                .reversed());
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "engine %s, strategies %s, %d locks: %d acquisitions, %d contended, %d spins, %d parks, %d hand-offs,"
                        + " wait %s, longest wait %s%n",
                core.engineName(),
                core.strategies(),
                all.size(),
                total.acquisitions(),
                total.contendedAcquisitions(),
                total.spins(),
                total.parks(),
                total.handoffs(),
                micros(total.waitNanos()),
                micros(total.longestWaitNanos())));
        out.append(String.format(
                Locale.ROOT,
                "%-32s %-10s %12s %12s %10s %10s %9s  %-26s %-26s%n",
                "lock",
                "strategy",
                "acquired",
                "contended",
                "spins",
                "parks",
                "hand-offs",
                "wait p50/p99/max (µs)",
                "hold p50/p99/max (µs)"));
        for (LockFrontCore.LockSnapshot lock : all.subList(0, Math.min(top, all.size()))) {
            LockCounts s = lock.statistics();
            out.append(String.format(
                    Locale.ROOT,
                    "%-32s %-10s %12d %12d %10d %10d %9d  %-26s %-26s%n",
                    lock.name(),
                    lock.strategy(),
                    s.acquisitions(),
                    s.contendedAcquisitions(),
                    s.spins(),
                    s.parks(),
                    s.handoffs(),
                    micros(s.waitNanos()),
                    micros(s.holdNanos())));
        }
        return out.toString();
    }

    private static String micros(Percentiles p) {
        if (p.count() == 0) {
            return "-";
        }
        return micros(p.p50Nanos()) + "/" + micros(p.p99Nanos()) + "/" + micros(p.maxNanos());
    }

    private static String micros(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1_000.0);
    }
}
