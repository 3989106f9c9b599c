package org.rouse.jobs.internal;

import java.util.Hashtable;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.config.ConfigCheck;
import org.rouse.jobs.spi.JobPlacement;
import org.rouse.timer.TimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job whiteboard: every {@link Runnable} or {@link Callable} service with {@code scheduler.expression} or
 * {@code scheduler.period} (the Apache Sling and Apache Karaf property names) runs on the Rouse timer service until
 * its service goes away. See {@link JobProperties} for the properties and their precedence.
 *
 * <pre>{@code
 * @Component(property = {"scheduler.period:Long=60", "scheduler.concurrent:Boolean=false"})
 * public class Cleanup implements Runnable {
 *     public void run() { ... }
 * }
 * }</pre>
 *
 * <p>Jobs run on a pool of this bundle ({@code threads} of PID {@value #PID}, default {@value #DEFAULT_THREADS};
 * threads named {@code rouse-job-N}, idle ones end after 30 s), so slow jobs never hold the timer provider's workers.
 * The shell commands {@code rouse:jobs} and {@code rouse:trigger} list and start jobs (Gogo functions, or Karaf
 * Action commands under Karaf's shell).
 */
@Component(
        immediate = true,
        service = {},
        configurationPid = JobWhiteboard.PID)
@Designate(ocd = JobsConfig.class)
public final class JobWhiteboard {

    /*
     * Implementation notes.
     *
     * Sources: Apache Sling Commons Scheduler, WhiteboardHandler (the tracked types, the service filter, the
     * properties).
     *
     * Layout. The TimerService comes in through the constructor, so the core exists before DS calls the first bind
     * method of the dynamic job references. The TimerService is this bundle's own view (a bundle-scoped service
     * factory of the API bundle): rouse:timers shows the jobs' timers under org.rouse.jobs, and when this bundle stops
     * the view and every job timer in it are released.
     */

    /** The configuration PID of the whiteboard. */
    static final String PID = "org.rouse.jobs";

    /** Threads running jobs at once by default; more due runs wait in the pool's queue. */
    static final int DEFAULT_THREADS = 8;

    private static final Logger LOG = LoggerFactory.getLogger(JobWhiteboard.class);

    private static final String RUNNABLE = "Runnable";
    private static final String CALLABLE = "Callable";

    private final ThreadPoolExecutor executor;
    private final JobsCore core;
    private final ServiceRegistration<JobCommands> commands;

    @Activate
    public JobWhiteboard(BundleContext context, JobsConfig config, @Reference(name = "timers") TimerService timers) {
        executor = new ThreadPoolExecutor(
                DEFAULT_THREADS, DEFAULT_THREADS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new JobThreads());
        executor.allowCoreThreadTimeOut(true);
        configure(config);
        core = new JobsCore(timers, executor);
        Hashtable<String, Object> properties = new Hashtable<>();
        if (!karafShell(context.getBundle())) {
            properties.put("osgi.command.scope", "rouse");
            properties.put("osgi.command.function", new String[] {"jobs", "trigger"});
        }
        commands = context.registerService(JobCommands.class, new JobCommands(core), properties);
    }

    @Reference(
            service = Runnable.class,
            cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC,
            target = JobProperties.FILTER,
            updated = "updatedRunnable")
    void bindRunnable(ServiceReference<Runnable> reference, Runnable job) {
        add(reference, RUNNABLE, Executors.callable(job));
    }

    void updatedRunnable(ServiceReference<Runnable> reference, Runnable job) {
        core.remove(serviceId(reference), RUNNABLE);
        add(reference, RUNNABLE, Executors.callable(job));
    }

    void unbindRunnable(ServiceReference<Runnable> reference) {
        core.remove(serviceId(reference), RUNNABLE);
    }

    @Reference(
            service = Callable.class,
            cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC,
            target = JobProperties.FILTER,
            updated = "updatedCallable")
    void bindCallable(ServiceReference<Callable<?>> reference, Callable<?> job) {
        add(reference, CALLABLE, job);
    }

    void updatedCallable(ServiceReference<Callable<?>> reference, Callable<?> job) {
        core.remove(serviceId(reference), CALLABLE);
        add(reference, CALLABLE, job);
    }

    void unbindCallable(ServiceReference<Callable<?>> reference) {
        core.remove(serviceId(reference), CALLABLE);
    }

    /**
     * The cluster's job placement (optional, greedy): runOn jobs run where it says; without one ever bound they run
     * here, and after it goes with none in its place, nowhere until one returns.
     */
    @Reference(
            service = JobPlacement.class,
            cardinality = ReferenceCardinality.OPTIONAL,
            policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindPlacement")
    void bindPlacement(JobPlacement placement) {
        core.placement(placement);
    }

    /** DS binds a replacement before it unbinds the old one, so only the placement in use is cleared. */
    void unbindPlacement(JobPlacement placement) {
        core.placementGone(placement);
    }

    /** Applies a valid configuration; an invalid one is logged whole and the last good one stays. */
    @Modified
    void configure(JobsConfig config) {
        ConfigCheck check = new ConfigCheck(PID);
        int threads = (int) check.inRange("threads", config.threads(), 1, 1024);
        if (!check.passed()) {
            LOG.error(check.rejection());
            return;
        }
        // DS serializes construction and modification, so only one thread resizes. Grow the maximum first and shrink
        // the core first, so core <= maximum holds at every step.
        if (threads > executor.getMaximumPoolSize()) {
            executor.setMaximumPoolSize(threads);
            executor.setCorePoolSize(threads);
        } else {
            executor.setCorePoolSize(threads);
            executor.setMaximumPoolSize(threads);
        }
    }

    @Deactivate
    void deactivate() {
        commands.unregister();
        core.close();
        // runs already started finish on their own; idle threads end now
        executor.shutdown();
    }

    private void add(ServiceReference<?> reference, String kind, Callable<?> job) {
        Bundle bundle = reference.getBundle();
        String label = bundle == null ? "(unregistered)" : bundle.getSymbolicName() + " [" + bundle.getBundleId() + "]";
        core.add(serviceId(reference), label, kind, reference::getProperty, job);
    }

    /**
     * Whether {@code bundle} is wired to Karaf's Action API: then Karaf's shell registers the Action commands of
     * {@code org.rouse.jobs.internal.karaf}, and Gogo functions of the same names would be a second
     * {@code rouse:jobs} in its registry (the API bundle's {@code GogoCommands} explains why that must not be). The
     * import is optional, so without Karaf's shell this is false.
     */
    static boolean karafShell(Bundle bundle) {
        BundleWiring wiring = bundle.adapt(BundleWiring.class);
        if (wiring == null) {
            return false;
        }
        for (BundleWire wire : wiring.getRequiredWires(PackageNamespace.PACKAGE_NAMESPACE)) {
            if ("org.apache.karaf.shell.api.action"
                    .equals(wire.getCapability().getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE))) {
                return true;
            }
        }
        return false;
    }

    private static long serviceId(ServiceReference<?> reference) {
        return (Long) reference.getProperty("service.id");
    }

    /** Names the pool's threads {@code rouse-job-N}; daemon threads, so a job never keeps the JVM alive. */
    private static final class JobThreads implements ThreadFactory {
        /** Incremented by whichever thread the pool creates a worker on. */
        private final AtomicInteger next = new AtomicInteger(1);

        @Override
        public Thread newThread(Runnable runnable) {
            Thread thread = new Thread(runnable, "rouse-job-" + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    }
}
