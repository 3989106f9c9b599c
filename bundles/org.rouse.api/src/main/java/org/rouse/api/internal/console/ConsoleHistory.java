package org.rouse.api.internal.console;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.IntCountsHistogram;

/**
 * The last {@value #SECONDS} per-second samples of every front, and their JSON form for the console page: counters as
 * rates per second, gauges as read, timer lateness as percentiles of each second and of the whole last minute.
 *
 * <pre>{@code
 * ConsoleHistory history = new ConsoleHistory();
 * history.add(System.nanoTime(), System.currentTimeMillis(), Map.of("timer", reading));   // once a second
 * String json = history.json(System.currentTimeMillis(), RecentSwaps.list());
 * }</pre>
 *
 * <p>Thread-safe: the sampling thread adds, request threads read; every method holds this object's monitor.
 *
 * <p>Implementation notes. <b>Layout:</b> per service a ring of at most {@value #SECONDS} points, the counters and the
 * cumulative lateness histogram of the previous reading, and the latest gauges and top list. <b>Invariants:</b> a
 * point holds the change since the previous reading of the same service, so a service's first reading makes no point;
 * a counter that went down (a reset, a new engine) gives no rate for that second (JSON {@code null}); a lateness total
 * that went down counts everything since the reset as that second's. <b>Costs:</b> each point keeps one second's
 * lateness in an {@link IntCountsHistogram} of 2 significant digits in microseconds (1 % precision; a few KB, grown
 * only as far as the values reach), not a copy of the 3-digit nanosecond total (about 170 KB at second-long values),
 * so a minute of points stays well under a megabyte; the last-minute percentiles merge the 60 points per request.
 */
final class ConsoleHistory {

    /** Points kept per service: one minute at one reading a second. */
    static final int SECONDS = 60;

    private static final int POINT_DIGITS = 2;

    /** Per service name, sorted; guarded by this. */
    private final Map<String, ServiceHistory> services = new TreeMap<>();

    /** One second of one service. {@code lateness} is null for services without one. */
    private record Point(
            long epochMillis, Map<String, Double> rates, Map<String, Double> gauges, IntCountsHistogram lateness) {}

    private static final class ServiceHistory {
        final ArrayDeque<Point> points = new ArrayDeque<>(SECONDS);
        String engine;
        Map<String, Double> gauges = Map.of();
        List<Map<String, Object>> top = List.of();
        Map<String, Long> counters;
        long nanos;
        Histogram lateness;
    }

    /**
     * Adds one reading per service taken at {@code nanoTime} ({@link System#nanoTime()}) and {@code epochMillis}.
     * Services missing from {@code readings} are forgotten (their front is gone).
     */
    synchronized void add(long nanoTime, long epochMillis, Map<String, ConsoleReading> readings) {
        services.keySet().retainAll(readings.keySet());
        readings.forEach((service, reading) -> {
            ServiceHistory history = services.computeIfAbsent(service, s -> new ServiceHistory());
            if (history.counters != null && nanoTime > history.nanos) {
                double seconds = (nanoTime - history.nanos) / 1e9;
                Map<String, Double> rates = new LinkedHashMap<>();
                reading.counters().forEach((name, value) -> {
                    Long before = history.counters.get(name);
                    rates.put(name, before == null || value < before ? null : (value - before) / seconds);
                });
                IntCountsHistogram lateness =
                        reading.lateness() == null ? null : difference(reading.lateness(), history.lateness);
                if (history.points.size() == SECONDS) {
                    history.points.removeFirst();
                }
                history.points.addLast(new Point(epochMillis, rates, new LinkedHashMap<>(reading.gauges()), lateness));
            }
            history.engine = reading.engine();
            history.gauges = new LinkedHashMap<>(reading.gauges());
            history.top = new ArrayList<>(reading.top());
            history.counters = new LinkedHashMap<>(reading.counters());
            history.nanos = nanoTime;
            history.lateness = reading.lateness();
        });
    }

    /** The samples that {@code now} minus {@code before}, both cumulative, adds: in microseconds, 2 digits. */
    static IntCountsHistogram difference(Histogram now, Histogram before) {
        IntCountsHistogram second = new IntCountsHistogram(POINT_DIGITS);
        boolean reset = before == null || now.getTotalCount() < before.getTotalCount();
        for (HistogramIterationValue value : now.recordedValues()) {
            long nanos = value.getValueIteratedTo();
            long count = value.getCountAtValueIteratedTo();
            if (!reset && nanos <= before.getMaxValue()) {
                count -= before.getCountAtValue(nanos);
            }
            if (count > 0) {
                second.recordValueWithCount(nanos / 1000, count);
            }
        }
        return second;
    }

    /** Forgets every service's points and previous reading (the sampler starts again after an idle period). */
    synchronized void clear() {
        services.clear();
    }

    /** How many points {@code service} has now (0 when unknown). */
    synchronized int points(String service) {
        ServiceHistory history = services.get(service);
        return history == null ? 0 : history.points.size();
    }

    /** The page's data: every service's latest figures and series, and the recent swaps. */
    synchronized String json(long epochMillis, List<RecentSwaps.Swap> swaps) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("time", epochMillis);
        root.put("seconds", SECONDS);
        Map<String, Object> all = new LinkedHashMap<>();
        services.forEach((name, history) -> all.put(name, serviceJson(history)));
        root.put("services", all);
        List<Object> swapRows = new ArrayList<>();
        for (RecentSwaps.Swap swap : swaps) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("time", swap.epochMillis());
            row.put("service", swap.service());
            row.put("from", swap.from());
            row.put("to", swap.to());
            row.put("pauseMillis", swap.pauseNanos() / 1e6);
            row.put("moved", swap.moved());
            swapRows.add(row);
        }
        root.put("swaps", swapRows);
        return Json.write(root);
    }

    private static Map<String, Object> serviceJson(ServiceHistory history) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("engine", history.engine);
        out.put("gauges", history.gauges);
        Point last = history.points.peekLast();
        out.put("rates", last == null ? Map.of() : last.rates());
        out.put("top", history.top);
        List<Long> times = new ArrayList<>();
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Map<String, List<Double>> gauges = new LinkedHashMap<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> max = new ArrayList<>();
        IntCountsHistogram minute = null;
        for (Point point : history.points) {
            times.add(point.epochMillis());
            point.rates().forEach((name, rate) -> rates.computeIfAbsent(name, n -> new ArrayList<>()));
            point.gauges().forEach((name, value) -> gauges.computeIfAbsent(name, n -> new ArrayList<>()));
        }
        for (Point point : history.points) {
            rates.forEach((name, series) -> series.add(point.rates().get(name)));
            gauges.forEach((name, series) -> series.add(point.gauges().get(name)));
            if (point.lateness() != null) {
                IntCountsHistogram second = point.lateness();
                boolean any = second.getTotalCount() > 0;
                p50.add(any ? millis(second.getValueAtPercentile(50)) : null);
                p99.add(any ? millis(second.getValueAtPercentile(99)) : null);
                max.add(any ? millis(second.getMaxValue()) : null);
                if (minute == null) {
                    minute = new IntCountsHistogram(POINT_DIGITS);
                }
                minute.add(second);
            }
        }
        Map<String, Object> series = new LinkedHashMap<>();
        series.put("t", times);
        series.put("rates", rates);
        series.put("gauges", gauges);
        if (minute != null) {
            series.put("latenessP50", p50);
            series.put("latenessP99", p99);
            series.put("latenessMax", max);
            Map<String, Object> lateness = new LinkedHashMap<>();
            long count = minute.getTotalCount();
            lateness.put("count", count);
            lateness.put("p50", count == 0 ? 0.0 : millis(minute.getValueAtPercentile(50)));
            lateness.put("p99", count == 0 ? 0.0 : millis(minute.getValueAtPercentile(99)));
            lateness.put("p999", count == 0 ? 0.0 : millis(minute.getValueAtPercentile(99.9)));
            lateness.put("max", count == 0 ? 0.0 : millis(minute.getMaxValue()));
            out.put("latenessLastMinute", lateness);
        }
        out.put("series", series);
        return out;
    }

    /** A histogram value in microseconds as milliseconds. */
    private static double millis(long micros) {
        return micros / 1000.0;
    }
}
