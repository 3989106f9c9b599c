package org.rouse.examples.scripts.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.config.ConfigCheck;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs N LSL-style scripts on the timer service and prints, about once per report interval, the line the OpenSim
 * experiment printed: the mean time between {@code timer()} events, its standard deviation and the p99 lateness.
 * OpenSim (100 ms polling, 0.5 s clamp) showed 0.502 s for a tiny interval; Second Life 0.044-0.045 s.
 */
@Component(immediate = true, configurationPid = ScriptHost.PID)
@Designate(ocd = ScriptHostConfig.class)
public final class ScriptHost {

    static final String PID = "org.rouse.examples.scripts";

    private static final Logger LOG = LoggerFactory.getLogger(ScriptHost.class);

    @Reference
    private TimerService timers;

    /** Guarded by this: activation, modification and deactivation are serialized by DS but may run on any thread. */
    private final List<Script> scripts = new ArrayList<>();

    private TimerOwner reporter;
    private Settings settings;

    /** A validated configuration. */
    record Settings(int scripts, Duration interval, Duration reportInterval) {}

    @Activate
    @Modified
    synchronized void configure(ScriptHostConfig config) {
        ConfigCheck check = new ConfigCheck(PID);
        long count = check.inRange("scripts", config.scripts(), 1, 100_000);
        double interval = check.inRange("timer.interval.s", config.timer_interval_s(), 0.0001, 3600);
        double report = check.inRange("report.interval.s", config.report_interval_s(), 0.1, 3600);
        if (!check.passed()) {
            LOG.error(check.rejection());
            if (settings != null) {
                return;
            }
            count = 711;
            interval = 0.05;
            report = 1.0;
        }
        Settings next = new Settings((int) count, seconds(interval), seconds(report));
        if (next.equals(settings)) {
            return;
        }
        stopScripts();
        settings = next;
        startScripts(next);
    }

    private static Duration seconds(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    private void startScripts(Settings s) {
        ReentryWindow window = new ReentryWindow();
        for (int i = 0; i < s.scripts(); i++) {
            Script script = new Script(timers.owner("script-" + i), window);
            scripts.add(script);
            script.stateEntry(
                    s.interval(),
                    Duration.ofNanos(
                            ThreadLocalRandom.current().nextLong(s.interval().toNanos())));
        }
        reporter = timers.owner("script-host-report");
        reporter.scheduleAtFixedRate(
                s.reportInterval(),
                s.reportInterval(),
                event -> LOG.info(window.takeSummary().line(s.scripts())));
        LOG.info(
                "Script host started {} scripts with llSetTimerEvent({} s); the timer service's minimum interval is {} ms",
                s.scripts(),
                s.interval().toNanos() / 1e9,
                timers.minimumInterval().toNanos() / 1e6);
    }

    private void stopScripts() {
        for (Script script : scripts) {
            script.stop();
        }
        scripts.clear();
        if (reporter != null) {
            reporter.close();
            reporter = null;
        }
    }

    @Deactivate
    synchronized void deactivate() {
        stopScripts();
        LOG.info("Script host stopped");
    }
}
