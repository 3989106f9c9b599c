package org.rouse.api.internal.selector;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.rouse.api.internal.console.ConsoleReading;
import org.rouse.selector.SelectorStatistics;
import org.rouse.selector.spi.SelectorEngine;

/** {@link SelectorMXBean} over a {@link SelectorFrontCore} and its views: every read is a fresh snapshot. */
final class SelectorStatisticsBean implements SelectorMXBean {

    private final SelectorFrontCore core;
    private final Supplier<Collection<BundleSelectorView>> views;

    SelectorStatisticsBean(SelectorFrontCore core, Supplier<Collection<BundleSelectorView>> views) {
        this.core = core;
        this.views = views;
    }

    @Override
    public String getEngine() {
        return core.engineName();
    }

    @Override
    public Map<String, Long> getEngineCounters() {
        SelectorEngine engine = core.active();
        return engine == null ? Map.of() : new TreeMap<>(engine.counters());
    }

    @Override
    public long getSelectCycles() {
        return counter("select.cycles");
    }

    @Override
    public long getWakeupsRequested() {
        SelectorEngine engine = core.active();
        return engine == null ? 0 : engine.wakeupsRequested();
    }

    @Override
    public long getWakeupsWritten() {
        SelectorEngine engine = core.active();
        return engine == null ? 0 : engine.wakeupsWritten();
    }

    @Override
    public long getPoolThreads() {
        return counter("pool.threads");
    }

    @Override
    public long getPoolQueued() {
        return counter("pool.queued");
    }

    @Override
    public long getPoolThreadsCreated() {
        return counter("pool.threads.created");
    }

    @Override
    public long getRegistrations() {
        return sum(SelectorStatistics::registrations);
    }

    @Override
    public long getConnections() {
        long sum = 0;
        for (BundleSelectorView view : views.get()) {
            sum += SelectorCommands.ConnectionCounts.of(view.handles()).connections();
        }
        return sum;
    }

    @Override
    public long getUpcalls() {
        return sum(SelectorStatistics::upcalls);
    }

    @Override
    public long getFailedUpcalls() {
        return sum(SelectorStatistics::failedUpcalls);
    }

    @Override
    public Map<String, String> getConnectionsPerBundle() {
        Map<String, String> all = new TreeMap<>();
        for (BundleSelectorView view : views.get()) {
            SelectorCommands.ConnectionCounts c = SelectorCommands.ConnectionCounts.of(view.handles());
            all.merge(view.owner(), c.connections() + "/" + c.listening() + "/" + c.other(), (a, b) -> a + ", " + b);
        }
        return all;
    }

    /** The figures of the console page ({@code org.rouse.api.internal.console}). */
    void read(ConsoleReading reading) {
        reading.engine(getEngine())
                .counter("selectCycles", getSelectCycles())
                .counter("wakeupsRequested", getWakeupsRequested())
                .counter("wakeupsWritten", getWakeupsWritten())
                .counter("upcalls", getUpcalls())
                .counter("failedUpcalls", getFailedUpcalls())
                .counter("poolThreadsCreated", getPoolThreadsCreated())
                .gauge("poolThreads", getPoolThreads())
                .gauge("poolQueued", getPoolQueued())
                .gauge("registrations", getRegistrations())
                .gauge("connections", getConnections());
    }

    @Override
    public void resetStatistics() {
        for (BundleSelectorView view : views.get()) {
            view.resetStatistics();
        }
    }

    /** The active engine's counter {@code name}, 0 without an engine or such a counter. */
    private long counter(String name) {
        SelectorEngine engine = core.active();
        return engine == null ? 0 : engine.counters().getOrDefault(name, 0L);
    }

    private long sum(ToLongFunction<SelectorStatistics> counter) {
        long sum = 0;
        for (BundleSelectorView view : views.get()) {
            sum += counter.applyAsLong(view.statistics());
        }
        return sum;
    }
}
