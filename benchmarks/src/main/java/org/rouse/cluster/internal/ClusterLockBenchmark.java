package org.rouse.cluster.internal;

import java.util.ArrayList;
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
 * name to the cluster bundle's {@code FencedLock}: Curator's {@code InterProcessMutex} plus one {@code exists()} for
 * the fencing token) against a raw Curator {@code InterProcessMutex}, at 1 and 4 threads, on one in-process ZooKeeper
 * server (curator-test's TestingServer). Each variant has its own Curator client; variants alternate in rounds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.rouse.cluster.internal.ClusterLockBenchmark [seconds] [rounds]
 * </pre>
 */
public final class ClusterLockBenchmark {

    private ClusterLockBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        try (TestingServer server = new TestingServer(true)) {
            ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
            ClusterSettings settings = ClusterSettings.of(
                    check, server.getConnectString(), 15_000, 10_000, "rouse", "rouse:bench", new String[] {"cluster.*"
                    });
            ClusterNode node = ClusterNode.start(settings, "bench");
            node.awaitConnected(20_000);
            LockFrontCore front = new LockFrontCore();
            front.clusterLocks(node.locks());
            LockService service = front.newView("bench");
            CuratorFramework raw = CuratorFrameworkFactory.builder()
                    .connectString(server.getConnectString())
                    .sessionTimeoutMs(15_000)
                    .connectionTimeoutMs(10_000)
                    .namespace("raw")
                    .retryPolicy(new BoundedExponentialBackoffRetry(100, 2_000, 10))
                    .build();
            raw.start();
            raw.blockUntilConnected(20, TimeUnit.SECONDS);
            InterProcessMutex rawMutex = new InterProcessMutex(raw, "/locks/bench");
            Lock rouse = service.lock("cluster.bench");
            Lock curator = new Lock() {
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
            Map<String, Lock> variants = new LinkedHashMap<>();
            variants.put("curator", curator);
            variants.put("rouse", rouse);
            for (int threads : new int[] {1, 4}) {
                Map<String, Histogram> latency = new LinkedHashMap<>();
                Map<String, long[]> counts = new LinkedHashMap<>();
                for (String v : variants.keySet()) {
                    latency.put(v, new Histogram(TimeUnit.SECONDS.toNanos(30), 3));
                    counts.put(v, new long[2]); // operations, nanoseconds
                }
                // warm-up: one short pass of each
                for (Map.Entry<String, Lock> v : variants.entrySet()) {
                    run(v.getValue(), threads, 1, new Recorder(3));
                }
                for (int round = 0; round < rounds; round++) {
                    for (Map.Entry<String, Lock> v : variants.entrySet()) {
                        Recorder recorder = new Recorder(3);
                        long start = System.nanoTime();
                        long ops = run(v.getValue(), threads, seconds, recorder);
                        long elapsed = System.nanoTime() - start;
                        latency.get(v.getKey()).add(recorder.getIntervalHistogram());
                        counts.get(v.getKey())[0] += ops;
                        counts.get(v.getKey())[1] += elapsed;
                    }
                }
                print(threads, latency, counts);
            }
            raw.close();
            node.close();
        }
    }

    private static long run(Lock lock, int threads, int seconds, Recorder recorder) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder ops = new LongAdder();
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
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

    private static void print(int threads, Map<String, Histogram> latency, Map<String, long[]> counts) {
        Histogram base = latency.get("curator");
        double baseThroughput = counts.get("curator")[0] * 1e9 / counts.get("curator")[1];
        for (Map.Entry<String, Histogram> e : latency.entrySet()) {
            Histogram h = e.getValue();
            double throughput = counts.get(e.getKey())[0] * 1e9 / counts.get(e.getKey())[1];
            System.out.println(String.format(
                    Locale.ROOT,
                    "threads %d %-8s ops %8d  p50 %8.3f ms  p99 %8.3f ms  throughput %8.1f/s  |  p50 %.2fx  p99 %.2fx"
                            + "  throughput %.2fx (vs curator)",
                    threads,
                    e.getKey(),
                    h.getTotalCount(),
                    h.getValueAtPercentile(50) / 1e6,
                    h.getValueAtPercentile(99) / 1e6,
                    throughput,
                    (double) h.getValueAtPercentile(50) / base.getValueAtPercentile(50),
                    (double) h.getValueAtPercentile(99) / base.getValueAtPercentile(99),
                    throughput / baseThroughput));
        }
    }
}
