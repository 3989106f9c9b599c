package org.rouse.api.internal.lock;

import org.osgi.annotation.bundle.Capability;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.api.internal.BundleViews;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.Jmx;
import org.rouse.api.internal.RankedEngines;
import org.rouse.api.internal.console.ConsoleSource;
import org.rouse.lock.LockService;
import org.rouse.lock.spi.ClusterLockProvider;
import org.rouse.lock.spi.LockEngine;

/**
 * The lock front: registers {@link LockService} as a service factory (one {@link BundleLockView} per consuming
 * bundle) and follows the best-ranked {@link LockEngine}. The work is done by {@link LockFrontCore}; this class only
 * wires it into DS.
 */
@Component(
        immediate = true,
        service = {},
        configurationPid = LockFrontCore.PID)
@Designate(ocd = LockFrontConfig.class)
// registered by hand (a ServiceFactory), so bnd cannot see it: advertise it for resolvers
@Capability(namespace = "osgi.service", attribute = "objectClass:List<String>=\"org.rouse.lock.LockService\"")
// the core, registered by hand for the health check of the same bundle (Karaf resolves service requirements)
@Capability(
        namespace = "osgi.service",
        attribute = "objectClass:List<String>=\"org.rouse.api.internal.lock.LockFrontCore\"")
public final class LockFront {

    private final LockFrontCore core = new LockFrontCore();
    /** Known engines; guarded by itself (binds may arrive on any thread, even before activate). */
    private final RankedEngines<LockEngine> engines = new RankedEngines<>();
    /** The LockService registration; written in activate/deactivate (DS serializes them). */
    private ServiceRegistration<LockService> registration;
    /**
     * The shell command object's registration (Gogo functions, or the service the Karaf Actions call); written in
     * activate/deactivate.
     */
    private ServiceRegistration<LockCommands> commands;
    /** The {@code org.rouse:type=Lock} MXBean; written in activate/deactivate. */
    private Jmx.Registration bean;
    /** The core as a service for {@link LockHealthCheck}; written in activate/deactivate. */
    private ServiceRegistration<LockFrontCore> health;
    /** The source of the console page's lock figures; written in activate/deactivate. */
    private ServiceRegistration<ConsoleSource> console;

    @Reference(
            service = LockEngine.class,
            cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC,
            unbind = "unbindEngine",
            updated = "updatedEngine")
    void bindEngine(ServiceReference<LockEngine> reference, LockEngine engine) {
        synchronized (engines) {
            core.swapTo(engines.add(reference, engine));
        }
    }

    /**
     * The engine's service properties changed: its {@code service.ranking} may have, so the order is re-read; its
     * configuration may have, so the core re-reads what the engine offers even when the same engine stays active.
     */
    void updatedEngine(ServiceReference<LockEngine> reference, LockEngine engine) {
        synchronized (engines) {
            core.swapTo(engines.update(reference, engine));
        }
    }

    void unbindEngine(ServiceReference<LockEngine> reference, LockEngine engine) {
        synchronized (engines) {
            core.swapTo(engines.remove(reference));
        }
    }

    /**
     * The best-ranked cluster lock provider (optional, greedy: a better-ranked one replaces it); consulted by name at
     * look-up only.
     */
    @Reference(
            service = ClusterLockProvider.class,
            cardinality = ReferenceCardinality.OPTIONAL,
            policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindCluster")
    void bindCluster(ClusterLockProvider provider) {
        core.clusterLocks(provider);
    }

    /** DS binds a replacement before it unbinds the old provider, so only the provider still in use is cleared. */
    void unbindCluster(ClusterLockProvider provider) {
        core.clusterLocksGone(provider);
    }

    @Activate
    void activate(BundleContext context, LockFrontConfig config) {
        configure(config);
        registration = BundleViews.register(context, LockService.class, core::newView, BundleLockView::release);
        commands = GogoCommands.register(
                context, LockCommands.class, new LockCommands(core, context), LockCommands.FUNCTIONS);
        LockStatisticsBean statistics = new LockStatisticsBean(core);
        bean = Jmx.register("Lock", statistics);
        console = ConsoleSource.register(context, "lock", statistics::read);
        health = context.registerService(LockFrontCore.class, core, null);
    }

    @Modified
    void modified(LockFrontConfig config) {
        configure(config);
    }

    @Deactivate
    void deactivate() {
        ServiceRegistration<LockFrontCore> h = health;
        health = null;
        if (h != null) {
            h.unregister();
        }
        ServiceRegistration<ConsoleSource> s = console;
        console = null;
        if (s != null) {
            s.unregister();
        }
        Jmx.Registration b = bean;
        bean = null;
        if (b != null) {
            b.unregister();
        }
        ServiceRegistration<LockCommands> c = commands;
        commands = null;
        if (c != null) {
            c.unregister();
        }
        ServiceRegistration<LockService> r = registration;
        registration = null;
        if (r != null) {
            r.unregister(); // the framework calls ungetService, releasing every view
        }
    }

    /** Validates and applies; a rejected configuration is logged and the last good one (defaults at first) stays. */
    private void configure(LockFrontConfig config) {
        core.configure(config.strategy(), config.strategy_patterns());
    }
}
