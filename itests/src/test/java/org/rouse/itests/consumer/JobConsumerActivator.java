package org.rouse.itests.consumer;

import java.util.Hashtable;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The activator of a bundle that {@code JobsIT} builds at test time (this class file is copied into it): registers a
 * whiteboard job named {@value #NAME} that runs every second, and never unregisters it.
 */
public final class JobConsumerActivator implements BundleActivator {

    public static final String NAME = "consumer-job";

    @Override
    public void start(BundleContext context) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("scheduler.period", 1L);
        properties.put("scheduler.immediate", Boolean.TRUE);
        properties.put("scheduler.name", NAME);
        context.registerService(Runnable.class, () -> {}, properties);
    }

    @Override
    public void stop(BundleContext context) {
        // deliberately nothing: the framework unregisters the service and the job must stop with it
    }
}
