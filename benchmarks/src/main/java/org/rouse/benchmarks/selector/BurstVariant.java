package org.rouse.benchmarks.selector;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.scenario.Measurement;
import org.rouse.benchmarks.scenario.Metrics;

/**
 * One server under {@code connections} closed-loop clients that call in bursts: every client makes chains of
 * {@value EchoLoad#CHAIN} calls back to back for a burst, then all are idle for exactly the plan's gap, and again.
 * A variant's whole sequence of bursts is one round, so its gaps are never filled by another variant's work.
 */
final class BurstVariant extends EchoLoadVariant {

    /*
     * Implementation notes.
     *
     * The gap runs from the moment the last client finished the previous burst (RoundWorkers' end barrier) to the
     * release of the next one: the driver parks until that deadline. Threads started and pool threads created or
     * retired are counted from the end of one burst to the end of the next, so a thread started or ended during
     * the gap is counted with the burst after it. Latency, CPU and throughput are those of the bursts only.
     */

    /**
     * How a variant's round calls.
     *
     * @param bursts how many bursts (at least 2: the figures of interest are those after the first)
     * @param burst how long each burst lasts
     * @param idleGap how long every client is idle between two bursts
     */
    record Plan(int bursts, Duration burst, Duration idleGap) {

        Plan {
            if (bursts < 2 || burst.isNegative() || burst.isZero() || idleGap.isNegative()) {
                throw new IllegalArgumentException(
                        "need bursts >= 2, burst > 0, idleGap >= 0: " + bursts + ", " + burst + ", " + idleGap);
            }
        }

        /** The length of the whole sequence: every burst and every gap. */
        Duration total() {
            return burst.multipliedBy(bursts).plus(idleGap.multipliedBy(bursts - 1L));
        }
    }

    private final Plan plan;

    BurstVariant(ServerSetup setup, int connections, Plan plan) {
        super(setup, connections, 0);
        this.plan = plan;
    }

    /** Runs every burst of the plan ({@code budget} is the plan's total, which the scenario's round plan says). */
    @Override
    public Measurement runRound(Duration budget) throws Exception {
        long burstNanos = plan.burst().toNanos();
        long gapNanos = plan.idleGap().toNanos();
        LatencyHistogram later = new LatencyHistogram();
        LatencyHistogram laterFirstCalls = new LatencyHistogram();
        Measurement.Builder m = Measurement.builder();
        double laterThreads = 0;
        double laterCreated = 0;
        double laterRetired = 0;
        long laterCpu = 0;
        long laterElapsed = 0;
        LoadSnapshot previousEnd = LoadSnapshot.take(load().server());
        long previousEndNanos = System.nanoTime();
        for (int burst = 0; burst < plan.bursts(); burst++) {
            if (burst > 0) {
                EchoLoad.parkUntil(previousEndNanos + gapNanos);
            }
            LoadSnapshot start = LoadSnapshot.take(load().server());
            EchoLoad.Round round = load().round(burstNanos);
            previousEndNanos = System.nanoTime();
            LoadSnapshot end = LoadSnapshot.take(load().server());
            long threads = end.threadsStartedSince(previousEnd);
            double created = end.increase(previousEnd, LoadSnapshot.POOL_THREADS_CREATED);
            double retired = end.increase(previousEnd, LoadSnapshot.POOL_THREADS_RETIRED);
            previousEnd = end;
            if (burst == 0) {
                m.put(SelectorMetrics.THREADS_STARTED_FIRST_BURST, threads)
                        .put(SelectorMetrics.POOL_THREADS_CREATED_FIRST_BURST, created)
                        .put(SelectorMetrics.P99_FIRST_100MS_FIRST_BURST_US, percentileOrNaN(round.firstCalls(), 99));
            } else {
                laterThreads += threads;
                laterCreated += created;
                laterRetired += retired;
                laterCpu += end.cpuSince(start);
                laterElapsed += round.elapsedNanos();
                later.add(round.calls());
                laterFirstCalls.add(round.firstCalls());
            }
        }
        int laterBursts = plan.bursts() - 1;
        long calls = later.count();
        m.put(Metrics.OPS, calls)
                .put(SelectorMetrics.THREADS_STARTED_LATER_BURST, laterThreads / laterBursts)
                .put(SelectorMetrics.POOL_THREADS_CREATED_LATER_BURST, laterCreated / laterBursts)
                .put(SelectorMetrics.POOL_THREADS_RETIRED_LATER_BURST, laterRetired / laterBursts)
                .put(SelectorMetrics.P99_FIRST_100MS_LATER_BURSTS_US, percentileOrNaN(laterFirstCalls, 99));
        if (calls == 0) {
            return m.build();
        }
        return m.put(Metrics.P50_US, later.percentileMicros(50))
                .put(Metrics.P99_US, later.percentileMicros(99))
                .put(Metrics.P999_US, later.percentileMicros(99.9))
                .put(Metrics.MAX_US, later.maxMicros())
                .put(SelectorMetrics.CALLS_PER_S, calls * (double) TimeUnit.SECONDS.toNanos(1) / laterElapsed)
                .put(SelectorMetrics.PROCESS_CPU_PER_CALL_US, laterCpu / 1_000.0 / calls)
                .latency(later)
                .build();
    }

    private static double percentileOrNaN(LatencyHistogram histogram, double percentile) {
        return histogram.count() == 0 ? Double.NaN : histogram.percentileMicros(percentile);
    }
}
