package org.rouse.api.internal.timer;

import org.osgi.annotation.bundle.Capability;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceFactory;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.api.internal.BundleViews;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.Jmx;
import org.rouse.api.internal.RankedEngines;
import org.rouse.api.internal.console.ConsoleSource;
import org.rouse.timer.TimerService;
import org.rouse.timer.spi.TimerEngine;

/**
 * Registers the bundle-scoped {@link TimerService} and keeps it on the best-ranked {@link TimerEngine}.
 *
 * <p>The service is registered by hand as a {@link ServiceFactory} (rather than by DS) so that the views outlive any
 * engine: engines come and go underneath through the dynamic reference, consumers never see them change.
 */
@Component(
        immediate = true,
        service = {},
        configurationPid = TimerFront.PID)
@Designate(ocd = TimerFrontConfig.class)
// registered by hand (a ServiceFactory), so bnd cannot see it: advertise it for resolvers
@Capability(namespace = "osgi.service", attribute = "objectClass:List<String>=\"org.rouse.timer.TimerService\"")
// the core, registered by hand for the health check of the same bundle (Karaf resolves service requirements)
@Capability(
        namespace = "osgi.service",
        attribute = "objectClass:List<String>=\"org.rouse.api.internal.timer.TimerFrontCore\"")
public final class TimerFront {

    /** The configuration PID of the timer service's policy. */
    public static final String PID = "org.rouse.timer";

    private final TimerFrontCore core = new TimerFrontCore();
    /** Guarded by itself; DS may call bind and unbind from different threads. */
    private final RankedEngines<TimerEngine> engines = new RankedEngines<>();

    private ServiceRegistration<TimerService> registration;
    private ServiceRegistration<TimerCommands> commands;
    /** The core as a service for {@link TimerHealthCheck}; written in activate/deactivate (DS serializes them). */
    private ServiceRegistration<TimerFrontCore> health;
    /** The {@code org.rouse:type=Timer} MXBean; written in activate/deactivate (DS serializes them). */
    private Jmx.Registration bean;
    /** The source of the console page's timer figures; written in activate/deactivate (DS serializes them). */
    private ServiceRegistration<ConsoleSource> console;

    @Reference(
            service = TimerEngine.class,
            cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC,
            updated = "updatedEngine")
    void bindEngine(ServiceReference<TimerEngine> reference, TimerEngine engine) {
        synchronized (engines) {
            core.swapTo(engines.add(reference, engine));
        }
    }

    /** The engine's service properties changed: its {@code service.ranking} may have, so the order is re-read. */
    void updatedEngine(ServiceReference<TimerEngine> reference, TimerEngine engine) {
        synchronized (engines) {
            core.swapTo(engines.update(reference, engine));
        }
    }

    void unbindEngine(ServiceReference<TimerEngine> reference, TimerEngine engine) {
        synchronized (engines) {
            core.swapTo(engines.remove(reference));
        }
    }

    @Activate
    void activate(BundleContext context, TimerFrontConfig config) {
        configure(config);
        registration = BundleViews.register(context, TimerService.class, core::newView, core::release);
        commands =
                GogoCommands.register(context, TimerCommands.class, new TimerCommands(core), TimerCommands.FUNCTIONS);
        TimerStatisticsBean statistics = new TimerStatisticsBean(core);
        bean = Jmx.register("Timer", statistics);
        console = ConsoleSource.register(context, "timer", statistics::read);
        health = context.registerService(TimerFrontCore.class, core, null);
    }

    @Modified
    void configure(TimerFrontConfig config) {
        core.configure(config);
    }

    @Deactivate
    void deactivate() {
        health.unregister();
        console.unregister();
        bean.unregister();
        commands.unregister();
        registration.unregister();
        core.releaseAll();
    }
}
