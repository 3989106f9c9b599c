package org.rouse.itests.consumer;

import java.time.Duration;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;

/**
 * The activator of a consumer bundle that {@code TimerHotSwapIT} builds at test time (this class file is copied into
 * it, so it is loaded by that bundle's own class loader): schedules {@value #FAR} timers an hour away and one periodic
 * timer, all with handlers defined in this class, and never cancels them.
 */
public final class TimerConsumerActivator implements BundleActivator {

    public static final int FAR = 5000;

    @Override
    public void start(BundleContext context) {
        ServiceReference<TimerService> reference = context.getServiceReference(TimerService.class);
        TimerService timers = context.getService(reference);
        TimerOwner owner = timers.owner("consumer");
        for (int i = 0; i < FAR; i++) {
            owner.schedule(Duration.ofHours(1).plusMillis(i), event -> {});
        }
        owner.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(10), event -> {});
        owner.asScheduledExecutorService()
                .scheduleAtFixedRate(() -> {}, 0, 10, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop(BundleContext context) {
        // deliberately nothing: the framework releases the service and Rouse must cancel everything
    }
}
