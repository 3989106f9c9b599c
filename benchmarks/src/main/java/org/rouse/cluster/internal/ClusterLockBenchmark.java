package org.rouse.cluster.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.rouse.api.internal.lock.LockFrontCore;
import org.rouse.config.ConfigCheck;
import org.rouse.lock.LockService;

/**
 * Cluster lock acquire + release through Rouse's {@link LockService} (the lock front routing a {@code cluster.*}
 * name to the cluster bundle's {@code FencedLock}: Curator's {@code InterProcessMutex}, the fencing token from the
 * create's Stat) against a raw Curator {@code InterProcessMutex}, at 1, 4 and 16 threads per node, on one in-process
 * ZooKeeper server (curator-test's TestingServer). One node: each variant has its own Curator client. Two nodes
 * ({@code *-2n}): two Curator clients (two cluster nodes, so two lock services, or two raw mutexes) contend on the
 * same lock, each with the given threads. Variants alternate in rounds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.rouse.cluster.internal.ClusterLockBenchmark [seconds] [rounds] [threads,...]
 * </pre>
 */
public final class ClusterLockBenchmark {

    private ClusterLockBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int[] threadCounts = Arrays.stream((args.length > 2 ? args[2] : "1,4,16").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        try (TestingServer server = new TestingServer(true)) {
            ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
            ClusterSettings settings = ClusterSettings.of(
                    check, server.getConnectString(), 15_000, 10_000, "rouse", "rouse:bench", new String[] {"cluster.*"
                    });
            ClusterNode node = ClusterNode.start(settings, "bench");
            ClusterNode second = ClusterNode.start(settings, "bench-2");
            node.awaitConnected(20_000);
            second.awaitConnected(20_000);
            LockFrontCore front = new LockFrontCore();
            front.clusterLocks(node.locks());
            LockService service = front.newView("bench");
            LockFrontCore secondFront = new LockFrontCore();
            secondFront.clusterLocks(second.locks());
            LockService secondService = secondFront.newView("bench");
            CuratorFramework raw = rawClient(server.getConnectString());
            CuratorFramework raw2 = rawClient(server.getConnectString());
            Map<String, Lock[]> variants = new LinkedHashMap<>();
            variants.put("curator", new Lock[] {curator(new InterProcessMutex(raw, "/locks/bench"))});
            variants.put("rouse", new Lock[] {service.lock("cluster.bench")});
            // two nodes: both clients on one lock (other paths than the one-node variants, so no cross-talk)
            variants.put("curator-2n", new Lock[] {
                curator(new InterProcessMutex(raw, "/locks/bench2")),
                curator(new InterProcessMutex(raw2, "/locks/bench2"))
            });
            variants.put("rouse-2n", new Lock[] {service.lock("cluster.bench2"), secondService.lock("cluster.bench2")});
            for (int threads : threadCounts) {
                Map<String, Histogram> latency = new LinkedHashMap<>();
                Map<String, long[]> counts = new LinkedHashMap<>();
                for (String v : variants.keySet()) {
                    latency.put(v, new Histogram(TimeUnit.SECONDS.toNanos(30), 3));
                    counts.put(v, new long[2]); // operations, nanoseconds
                }
                // warm-up: one short pass of each
                for (Map.Entry<String, Lock[]> v : variants.entrySet()) {
                    run(v.getValue(), threads, 1, new Recorder(3));
                }
                for (int round = 0; round < rounds; round++) {
                    for (Map.Entry<String, Lock[]> v : variants.entrySet()) {
                        Recorder recorder = new Recorder(3);
                        long start = System.nanoTime();
                        long ops = run(v.getValue(), threads, seconds, recorder);
                        long elapsed = System.nanoTime() - start;
                        latency.get(v.getKey()).add(recorder.getIntervalHistogram());
                        counts.get(v.getKey())[0] += ops;
                        counts.get(v.getKey())[1] += elapsed;
                    }
                }
                print(threads, latency, counts, "curator", "rouse");
                print(threads, latency, counts, "curator-2n", "rouse-2n");
            }
            raw.close();
            raw2.close();
            second.close();
            node.close();
        }
    }

    private static CuratorFramework rawClient(String connect) throws InterruptedException {
        CuratorFramework raw = CuratorFrameworkFactory.builder()
                .connectString(connect)
                .sessionTimeoutMs(15_000)
                .connectionTimeoutMs(10_000)
                .namespace("raw")
                .retryPolicy(new BoundedExponentialBackoffRetry(100, 2_000, 10))
                .build();
        raw.start();
        raw.blockUntilConnected(20, TimeUnit.SECONDS);
        return raw;
    }

    /** A raw mutex as a {@link Lock} (lock and unlock only), so both variants run the same loop. */
    private static Lock curator(InterProcessMutex rawMutex) {
        return new Lock() {
            @Override
            public void lock() {
                try {
                    rawMutex.acquire();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void unlock() {
                try {
                    rawMutex.release();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void lockInterruptibly() {
                lock();
            }

            @Override
            public boolean tryLock() {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean tryLock(long time, TimeUnit unit) {
                throw new UnsupportedOperationException();
            }

            @Override
            public java.util.concurrent.locks.Condition newCondition() {
                throw new UnsupportedOperationException();
            }
        };
    }

    /** {@code threads} threads on each of {@code locks} (one per node), all on one lock name. */
    private static long run(Lock[] locks, int threadsPerNode, int seconds, Recorder recorder)
            throws InterruptedException {
        int threads = threadsPerNode * locks.length;
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder ops = new LongAdder();
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Lock lock = locks[i % locks.length];
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        long start = System.nanoTime();
                        lock.lock();
                        lock.unlock();
                        recorder.recordValue(System.nanoTime() - start);
                        ops.increment();
                    }
                } finally {
                    done.countDown();
                }
            });
            t.start();
            workers.add(t);
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds)); // the measuring window, not a wait for a result
        stop.set(true);
        done.await(60, TimeUnit.SECONDS);
        return ops.sum();
    }

    private static void print(
            int threads, Map<String, Histogram> latency, Map<String, long[]> counts, String baseline, String rouse) {
        Histogram base = latency.get(baseline);
        double baseThroughput = counts.get(baseline)[0] * 1e9 / counts.get(baseline)[1];
        for (Map.Entry<String, Histogram> e : latency.entrySet()) {
            if (!e.getKey().equals(baseline) && !e.getKey().equals(rouse)) {
                continue;
            }
            Histogram h = e.getValue();
            double throughput = counts.get(e.getKey())[0] * 1e9 / counts.get(e.getKey())[1];
            System.out.println(String.format(
                    Locale.ROOT,
                    "threads/node %2d %-10s ops %8d  p50 %8.3f ms  p99 %8.3f ms  throughput %8.1f/s  |  p50 %.2fx  p99 %.2fx"
                            + "  throughput %.2fx (vs %s)",
                    threads,
                    e.getKey(),
                    h.getTotalCount(),
                    h.getValueAtPercentile(50) / 1e6,
                    h.getValueAtPercentile(99) / 1e6,
                    throughput,
                    (double) h.getValueAtPercentile(50) / base.getValueAtPercentile(50),
                    (double) h.getValueAtPercentile(99) / base.getValueAtPercentile(99),
                    throughput / baseThroughput,
                    baseline));
        }
    }
}
