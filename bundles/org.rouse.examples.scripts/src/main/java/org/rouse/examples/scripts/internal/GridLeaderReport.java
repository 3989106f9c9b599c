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
 * A leader-only whiteboard job: {@code scheduler.runOn=LEADER} every 5 s. With {@code org.rouse.cluster} configured,
 * only the node that leads this job runs it, and another node takes over when the leader dies; without a cluster it
 * runs here (one INFO line says so). {@code rouse:jobs} shows its runs and where it leads; it logs at DEBUG only, so
 * a grid of script hosts does not fill the log.
 */
// the host's PID, ignored, as for MinuteSummary
@Component(
        service = Runnable.class,
        configurationPid = ScriptHost.PID,
        configurationPolicy = ConfigurationPolicy.IGNORE,
        property = {"scheduler.period:Long=5", "scheduler.runOn=LEADER", "scheduler.name=grid-leader-report"})
public final class GridLeaderReport implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(GridLeaderReport.class);

    @Reference
    private TimerService timers;

    @Override
    public void run() {
        if (LOG.isDebugEnabled()) {
            TimerStatistics statistics = timers.statistics();
            LOG.debug(String.format(
                    Locale.ROOT,
                    "grid leader report: %d timer events, %d timers pending on the leading node",
                    statistics.fired(),
                    statistics.pending()));
        }
    }
}
