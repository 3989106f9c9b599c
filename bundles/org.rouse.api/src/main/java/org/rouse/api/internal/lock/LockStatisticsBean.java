package org.rouse.api.internal.lock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.rouse.api.internal.console.ConsoleReading;

/** {@link LockMXBean} over a {@link LockFrontCore}: every read is a fresh snapshot of the live locks. */
final class LockStatisticsBean implements LockMXBean {

    private static final int TOP = 10;

    private final LockFrontCore core;

    LockStatisticsBean(LockFrontCore core) {
        this.core = core;
    }

    @Override
    public String getEngine() {
        return core.engineName();
    }

    @Override
    public String[] getStrategies() {
        return new TreeSet<>(core.strategies()).toArray(new String[0]);
    }

    @Override
    public String getPolicy() {
        return core.policyDescription();
    }

    @Override
    public int getLocks() {
        return core.snapshot().size();
    }

    @Override
    public long getAcquisitions() {
        return total().acquisitions();
    }

    @Override
    public long getContendedAcquisitions() {
        return total().contendedAcquisitions();
    }

    @Override
    public long getSpins() {
        return total().spins();
    }

    @Override
    public long getParks() {
        return total().parks();
    }

    @Override
    public long getHandoffs() {
        return total().handoffs();
    }

    @Override
    public long getSwaps() {
        return total().swaps();
    }

    @Override
    public double getLongestWaitMicros() {
        return total().longestWaitNanos() / 1e3;
    }

    @Override
    public double getWaitP50Micros() {
        return total().waitNanos().p50Nanos() / 1e3;
    }

    @Override
    public double getWaitP99Micros() {
        return total().waitNanos().p99Nanos() / 1e3;
    }

    @Override
    public String[] getTopContended() {
        List<LockFrontCore.LockSnapshot> all = new ArrayList<>(core.snapshot());
        all.removeIf(l -> l.statistics().contendedAcquisitions() == 0);
        all.sort(Comparator.comparingLong(
                        (LockFrontCore.LockSnapshot l) -> l.statistics().contendedAcquisitions())
                .reversed());
        return all.stream()
                .limit(TOP)
                .map(l -> String.format(
                        Locale.ROOT,
                        "%s %s contended=%d acquired=%d wait p99=%.1f µs",
                        l.name(),
                        l.strategy(),
                        l.statistics().contendedAcquisitions(),
                        l.statistics().acquisitions(),
                        l.statistics().waitNanos().p99Nanos() / 1e3))
                .toArray(String[]::new);
    }

    /** The figures of the console page ({@code org.rouse.api.internal.console}): totals and the top contended. */
    void read(ConsoleReading reading) {
        LockCounts total = total();
        reading.engine(getEngine())
                .counter("acquisitions", total.acquisitions())
                .counter("contended", total.contendedAcquisitions())
                .counter("parks", total.parks())
                .gauge("locks", getLocks());
        List<LockFrontCore.LockSnapshot> all = new ArrayList<>(core.snapshot());
        all.removeIf(l -> l.statistics().contendedAcquisitions() == 0);
        all.sort(Comparator.comparingLong(
                        (LockFrontCore.LockSnapshot l) -> l.statistics().contendedAcquisitions())
                .reversed());
        all.stream().limit(TOP).forEach(l -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", l.name());
            row.put("strategy", l.strategy());
            row.put("contended", l.statistics().contendedAcquisitions());
            row.put("acquired", l.statistics().acquisitions());
            row.put("waitP99Micros", l.statistics().waitNanos().p99Nanos() / 1e3);
            reading.topRow(row);
        });
    }

    @Override
    public void resetStatistics() {
        core.resetStatistics();
    }

    private LockCounts total() {
        LockCounts total = LockCounts.ZERO;
        for (LockFrontCore.LockSnapshot lock : core.snapshot()) {
            total = total.plus(lock.statistics());
        }
        return total;
    }
}
