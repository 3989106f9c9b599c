package org.rouse.examples.scripts.internal;

import java.util.Locale;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.rouse.timer.TimerService;
import org.rouse.timer.TimerStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whiteboard job as Sling and Karaf know them: a {@link Runnable} service with {@code scheduler.*} properties, which
 * {@code org.rouse.jobs} runs once a minute. It logs how many timer events this bundle's scripts have had, and their
 * p99 lateness. Without {@code org.rouse.jobs} nothing runs it.
 */
// the host's PID, ignored: the job has nothing to configure, and every Rouse component names a described PID
@Component(
        service = Runnable.class,
        configurationPid = ScriptHost.PID,
        configurationPolicy = ConfigurationPolicy.IGNORE,
        property = {"scheduler.period:Long=60", "scheduler.name=scripts-minute-summary"})
public final class MinuteSummary implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(MinuteSummary.class);

    @Reference
    private TimerService timers;

    @Override
    public void run() {
        TimerStatistics statistics = timers.statistics();
        LOG.info(String.format(
                Locale.ROOT,
                "scripts: %d timer events so far, %d timers pending, p99 lateness %.3f ms",
                statistics.fired(),
                statistics.pending(),
                statistics.lateness().p99Nanos() / 1e6));
    }
}
