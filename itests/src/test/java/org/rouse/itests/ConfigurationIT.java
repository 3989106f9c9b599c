package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;

import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.rouse.timer.TimerService;

/** Configuration through ConfigAdmin takes effect; an invalid one is rejected and the last good one stays. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ConfigurationIT extends RouseTestSupport {

    private static final String TIMER_PID = "org.rouse.timer";
    private static final String TIMER_FRONT = "org.rouse.api.internal.timer.TimerFront";
    /** {@code minimum.interval.ms}'s documented default. */
    private static final Duration DEFAULT_MINIMUM_INTERVAL = Duration.ofMillis(1);

    @Inject
    ConfigurationAdmin configAdmin;

    @Inject
    TimerService timers;

    /**
     * Deletes the test's configuration and waits until the component runs without it: ConfigAdmin and SCR deliver
     * the deletion asynchronously, and a deletion that reached the component after the next test's update would undo
     * that update.
     */
    @After
    public void deleteConfiguration() throws Exception {
        Configuration configuration = configAdmin.getConfiguration(TIMER_PID, "?");
        if (configuration.getProperties() != null) {
            configuration.delete();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !frontInstance().properties.containsKey("service.pid")
                            && timers.minimumInterval().equals(DEFAULT_MINIMUM_INTERVAL));
        }
    }

    @Test
    public void aValidChangeTakesEffectWithoutReactivation() throws Exception {
        long componentId = frontInstance().id;
        update(TIMER_PID, "minimum.interval.ms", 25.0);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> timers.minimumInterval().equals(Duration.ofMillis(25)));
        assertEquals("modified in place, not re-created", componentId, frontInstance().id);
        Duration clamped = timers.owner("config-it")
                .scheduleAtFixedRate(Duration.ofHours(1), Duration.ofMillis(1), e -> {})
                .period();
        assertEquals(Duration.ofMillis(25), clamped);
    }

    @Test
    public void anInvalidChangeIsRejectedAndTheLastGoodOneStays() throws Exception {
        update(TIMER_PID, "minimum.interval.ms", 30.0);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> timers.minimumInterval().equals(Duration.ofMillis(30)));
        update(TIMER_PID, "minimum.interval.ms", -5.0);
        // Wait until the component has been handed the invalid value, then check it kept the good one.
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        Double.valueOf(-5.0).equals(frontInstance().properties.get("minimum.interval.ms")));
        assertEquals(Duration.ofMillis(30), timers.minimumInterval());
    }

    private ComponentConfigurationDTO frontInstance() {
        return configurations(TIMER_FRONT).get(0);
    }

    private void update(String pid, String key, Object value) throws Exception {
        Configuration configuration = configAdmin.getConfiguration(pid, "?");
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(key, value);
        configuration.update(properties);
    }
}
