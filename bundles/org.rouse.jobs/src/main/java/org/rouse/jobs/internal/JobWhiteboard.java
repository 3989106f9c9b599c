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
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.rouse.timer.TimerService;

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
 * <p>Jobs run on a pool of {@value #THREADS} threads of this bundle (named {@code rouse-job-N}; idle ones end after
 * 30 s), so slow jobs never hold the timer provider's workers. The Gogo commands {@code rouse:jobs} and
 * {@code rouse:trigger} list and start jobs.
 */
@Component(
        immediate = true,
        service = {})
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

    /** Threads running jobs at once; more due runs wait in the pool's queue. */
    static final int THREADS = 8;

    private static final String RUNNABLE = "Runnable";
    private static final String CALLABLE = "Callable";

    private final ThreadPoolExecutor executor;
    private final JobsCore core;
    private final ServiceRegistration<JobCommands> commands;

    @Activate
    public JobWhiteboard(BundleContext context, @Reference(name = "timers") TimerService timers) {
        executor = new ThreadPoolExecutor(
                THREADS, THREADS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new JobThreads());
        executor.allowCoreThreadTimeOut(true);
        core = new JobsCore(timers, executor);
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("osgi.command.scope", "rouse");
        properties.put("osgi.command.function", new String[] {"jobs", "trigger"});
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

    @Deactivate
    void deactivate() {
        commands.unregister();
        core.close();
        // runs already started finish on their own; idle threads end now
        executor.shutdown();
    }

    /** The jobs core, for tests in this package. */
    JobsCore core() {
        return core;
    }

    private void add(ServiceReference<?> reference, String kind, Callable<?> job) {
        Bundle bundle = reference.getBundle();
        String label = bundle == null ? "(unregistered)" : bundle.getSymbolicName() + " [" + bundle.getBundleId() + "]";
        core.add(serviceId(reference), label, kind, reference::getProperty, job);
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
