package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;
import org.rouse.timer.spi.TimerEngine;
import org.rouse.timer.spi.TimerEntry;

/**
 * The timer front follows {@code service.ranking} when it changes: an engine's configuration (ConfigAdmin, which DS
 * turns into service properties) raises or lowers its ranking, the front moves to the engine that ranks best, and a
 * removal afterwards leaves the right engine active.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class EngineRankingIT extends RouseTestSupport {

    private static final String ENGINE_PID = "org.rouse.timer.engine";

    @Inject
    TimerService timers;

    @Inject
    ConfigurationAdmin configAdmin;

    @Test
    public void theFrontFollowsARankingChangedByConfigurationAndARemovalKeepsTheRightEngine() throws Exception {
        awaitEngine("wheel");
        ProbeEngine probe = new ProbeEngine();
        Dictionary<String, Object> probeProperties = new Hashtable<>();
        probeProperties.put(Constants.SERVICE_RANKING, 10);
        probeProperties.put(TimerEngine.ENGINE_NAME, ProbeEngine.NAME);
        ServiceRegistration<TimerEngine> registration =
                context.registerService(TimerEngine.class, probe, probeProperties);
        Configuration engineConfig = configAdmin.getConfiguration(ENGINE_PID, "?");
        try {
            awaitEngine(ProbeEngine.NAME);
            assertTimerFires("on the probe");

            setWheelRanking(engineConfig, 20);
            awaitEngine("wheel"); // raised above the probe by its configuration
            assertTimerFires("on the raised wheel");

            setWheelRanking(engineConfig, 0);
            awaitEngine(ProbeEngine.NAME); // lowered below it again
            setWheelRanking(engineConfig, 30);
            awaitEngine("wheel");

            registration.unregister();
            registration = null;
            assertEquals(
                    "removing the lower-ranked probe keeps the wheel",
                    "wheel",
                    timers.statistics().engine());
            assertTimerFires("after the probe left");
            assertEquals("nothing left in the removed probe", 0, probe.armedCount());
        } finally {
            if (registration != null) {
                registration.unregister();
            }
            engineConfig.delete();
            probe.close();
        }
        awaitEngine("wheel");
    }

    private static void setWheelRanking(Configuration engineConfig, int ranking) throws Exception {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_RANKING, ranking);
        engineConfig.update(properties);
    }

    private void awaitEngine(String name) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> name.equals(timers.statistics().engine()));
    }

    private void assertTimerFires(String when) throws InterruptedException {
        TimerOwner owner = timers.owner("ranking-it");
        CountDownLatch fired = new CountDownLatch(1);
        owner.schedule(Duration.ofMillis(5), e -> fired.countDown());
        assertTrue("a timer fires " + when, fired.await(10, TimeUnit.SECONDS));
    }

    /** A plain engine registered by the test: deadlines on a scheduled executor, handlers on a cached pool. */
    static final class ProbeEngine implements TimerEngine, AutoCloseable {
        static final String NAME = "probe";

        private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        private final ExecutorService workers = Executors.newCachedThreadPool();
        private final Map<TimerEntry, ScheduledFuture<?>> armed = new ConcurrentHashMap<>();
        private boolean draining;

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public synchronized boolean arm(TimerEntry entry) {
            if (draining || scheduler.isShutdown()) {
                return false;
            }
            long delay = entry.deadlineNanos() - System.nanoTime();
            armed.put(entry, scheduler.schedule(() -> expire(entry), delay, TimeUnit.NANOSECONDS));
            return true;
        }

        private void expire(TimerEntry entry) {
            boolean mine;
            synchronized (this) { // waits until arm has recorded the future
                mine = armed.remove(entry) != null;
            }
            if (mine) {
                entry.expire();
            }
        }

        @Override
        public boolean disarm(TimerEntry entry) {
            ScheduledFuture<?> future = armed.remove(entry);
            return future != null && future.cancel(false);
        }

        @Override
        public void execute(Runnable task) {
            workers.execute(task);
        }

        @Override
        public synchronized List<TimerEntry> drain() {
            draining = true;
            List<TimerEntry> pending = new ArrayList<>();
            for (TimerEntry entry : List.copyOf(armed.keySet())) {
                if (disarm(entry)) {
                    pending.add(entry);
                }
            }
            draining = false;
            return pending;
        }

        @Override
        public long dispatcherWakeups() {
            return 0;
        }

        @Override
        public int armedCount() {
            return armed.size();
        }

        @Override
        public void close() {
            scheduler.shutdownNow();
            workers.shutdown();
        }
    }
}
