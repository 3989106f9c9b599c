package org.rouse.api.internal.timer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.rouse.api.internal.console.ConsoleReading;
import org.rouse.stats.Percentiles;
import org.rouse.timer.TimerStatistics;

/** {@link TimerMXBean} over a {@link TimerFrontCore}: every attribute read is a fresh snapshot. */
final class TimerStatisticsBean implements TimerMXBean {

    private static final int TOP = 10;

    private final TimerFrontCore core;

    TimerStatisticsBean(TimerFrontCore core) {
        this.core = core;
    }

    @Override
    public String getEngine() {
        return core.dispatch().engineName();
    }

    @Override
    public long getDispatcherWakeups() {
        return core.dispatch().dispatcherWakeups();
    }

    @Override
    public long getSwaps() {
        return core.swaps();
    }

    @Override
    public double getLastSwapPauseMillis() {
        return core.lastSwapPauseNanos() / 1e6;
    }

    @Override
    public int getBundles() {
        return core.views().size();
    }

    @Override
    public int getOwners() {
        return core.owners().size();
    }

    @Override
    public long getPending() {
        return sum(TimerStatistics::pending);
    }

    @Override
    public long getFired() {
        return sum(TimerStatistics::fired);
    }

    @Override
    public long getFailed() {
        return sum(TimerStatistics::failed);
    }

    @Override
    public long getCancelled() {
        return sum(TimerStatistics::cancelled);
    }

    @Override
    public long getClamped() {
        return sum(TimerStatistics::clamped);
    }

    @Override
    public long getSlowHandlers() {
        return sum(TimerStatistics::slowHandlers);
    }

    @Override
    public long getLatenessCount() {
        return lateness().count();
    }

    @Override
    public double getLatenessP50Millis() {
        return lateness().p50Nanos() / 1e6;
    }

    @Override
    public double getLatenessP99Millis() {
        return lateness().p99Nanos() / 1e6;
    }

    @Override
    public double getLatenessP999Millis() {
        return lateness().p999Nanos() / 1e6;
    }

    @Override
    public double getLatenessMaxMillis() {
        return lateness().maxNanos() / 1e6;
    }

    @Override
    public int getRunningHandlerCount() {
        return running().size();
    }

    @Override
    public double getLongestRunningHandlerMillis() {
        List<Owner.OwnerSnapshot> running = running();
        return running.isEmpty() ? 0 : running.get(0).runningNanos() / 1e6;
    }

    @Override
    public String[] getTopLateOwners() {
        List<Owner.OwnerSnapshot> owners = new ArrayList<>(core.owners());
        owners.removeIf(o -> o.runs() == 0);
        owners.sort(
                Comparator.comparingLong(Owner.OwnerSnapshot::latenessMaxNanos).reversed());
        return owners.stream()
                .limit(TOP)
                .map(o -> String.format(
                        Locale.ROOT,
                        "%s %s runs=%d mean=%.3f ms max=%.3f ms",
                        o.consumer(),
                        o.owner(),
                        o.runs(),
                        o.latenessMeanNanos() / 1e6,
                        o.latenessMaxNanos() / 1e6))
                .toArray(String[]::new);
    }

    @Override
    public String[] getRunningHandlers() {
        return running().stream()
                .limit(TOP)
                .map(o -> String.format(
                        Locale.ROOT,
                        "%s %s %s running=%.3f ms",
                        o.consumer(),
                        o.owner(),
                        o.runningTimer(),
                        o.runningNanos() / 1e6))
                .toArray(String[]::new);
    }

    @Override
    public void resetStatistics() {
        core.resetStatistics();
    }

    /** The owners running a handler now, longest first. */
    private List<Owner.OwnerSnapshot> running() {
        List<Owner.OwnerSnapshot> owners = new ArrayList<>(core.owners());
        owners.removeIf(o -> o.runningTimer() == null);
        owners.sort(Comparator.comparingLong(Owner.OwnerSnapshot::runningNanos).reversed());
        return owners;
    }

    private long sum(java.util.function.ToLongFunction<TimerStatistics> counter) {
        long sum = 0;
        for (BundleTimerView view : core.views()) {
            sum += counter.applyAsLong(view.statistics());
        }
        return sum;
    }

    private Percentiles lateness() {
        return LatenessHistogram.percentiles(latenessHistogram());
    }

    /** Every view's lateness in nanoseconds merged into a new histogram (3 significant digits, as each view records). */
    Histogram latenessHistogram() {
        Histogram all = new Histogram(3);
        for (BundleTimerView view : core.views()) {
            view.counters().lateness().addTo(all);
        }
        return all;
    }

    /** The figures of the console page ({@code org.rouse.api.internal.console}). */
    void read(ConsoleReading reading) {
        reading.engine(getEngine())
                .counter("fired", getFired())
                .counter("failed", getFailed())
                .gauge("pending", getPending())
                .gauge("owners", getOwners())
                .gauge("running", getRunningHandlerCount())
                .lateness(latenessHistogram());
    }
}
