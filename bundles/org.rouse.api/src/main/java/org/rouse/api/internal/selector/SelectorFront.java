package org.rouse.api.internal.selector;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
import org.rouse.config.ConfigCheck;
import org.rouse.selector.SelectorService;
import org.rouse.selector.spi.SelectorEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The selector front: registers {@link SelectorService} as a service factory (one {@link BundleSelectorView} per
 * consuming bundle) and points every view at the best-ranked {@link SelectorEngine} service, moving registrations
 * when that changes. Configured through PID {@value #PID}.
 */
@Component(
        immediate = true,
        service = {},
        configurationPid = SelectorFront.PID)
@Designate(ocd = SelectorFrontConfig.class)
// registered by hand (a ServiceFactory), so bnd cannot see it: advertise it for resolvers
@Capability(namespace = "osgi.service", attribute = "objectClass:List<String>=\"org.rouse.selector.SelectorService\"")
// the core, registered by hand for the health check of the same bundle (Karaf resolves service requirements)
@Capability(
        namespace = "osgi.service",
        attribute = "objectClass:List<String>=\"org.rouse.api.internal.selector.SelectorFrontCore\"")
public final class SelectorFront {

    /*
     * Implementation notes.
     *
     * Layout. Engines may be bound before activate and unbound after deactivate (dynamic references), so the engine
     * switching lives in SelectorFrontCore, created with the component and independent of activation.
     *
     * Invariants.
     * 1. Binds and unbinds update RankedEngines and swap the front core under enginesLock, so the active engine always
     *    is the best-ranked one bound.
     *
     * Algorithm. Views: the framework calls the factory's getService once per consuming bundle and ungetService when
     * that bundle stops or releases the service; ungetService releases the view, closing its channels. Deactivate
     * unregisters the factory (which ungets every view) and releases any view left.
     */

    /** The configuration PID. */
    public static final String PID = "org.rouse.selector";

    static final int DEFAULT_MAX_REGISTRATIONS = 65_536;

    private static final Logger LOG = LoggerFactory.getLogger(SelectorFront.class);

    private final SelectorFrontCore core = new SelectorFrontCore();

    /** Guards engines and the switch that follows each change. */
    private final Object enginesLock = new Object();

    /** Every bound engine; guarded by enginesLock. */
    private final RankedEngines<SelectorEngine> engines = new RankedEngines<>();

    /** Views handed out and not yet released; added/removed by the service factory. */
    private final Set<BundleSelectorView> views = ConcurrentHashMap.newKeySet();

    /** The cap every view reads at register; written by configure (DS serializes activate/modified). */
    private volatile int maxRegistrationsPerBundle = DEFAULT_MAX_REGISTRATIONS;

    /** The service factory's registration; written by activate/deactivate only. */
    private ServiceRegistration<SelectorService> registration;

    /**
     * The shell command object's registration (Gogo functions, or the service the Karaf Actions call); written by
     * activate/deactivate only.
     */
    private ServiceRegistration<SelectorCommands> command;

    /** The {@code org.rouse:type=Selector} MXBean; written by activate/deactivate only. */
    private Jmx.Registration bean;
    /** The source of the console page's selector figures; written by activate/deactivate only. */
    private ServiceRegistration<ConsoleSource> console;

    /** The core as a service for {@link SelectorHealthCheck}; written by activate/deactivate only. */
    private ServiceRegistration<SelectorFrontCore> health;

    @Activate
    void activate(BundleContext context, SelectorFrontConfig config) {
        configure(config);
        registration = BundleViews.register(context, SelectorService.class, this::openView, this::closeView);
        command = GogoCommands.register(
                context,
                SelectorCommands.class,
                new SelectorCommands(core, () -> List.copyOf(views)),
                SelectorCommands.FUNCTIONS);
        SelectorStatisticsBean statistics = new SelectorStatisticsBean(core, () -> List.copyOf(views));
        bean = Jmx.register("Selector", statistics);
        console = ConsoleSource.register(context, "selector", statistics::read);
        health = context.registerService(SelectorFrontCore.class, core, null);
    }

    @Modified
    void modified(SelectorFrontConfig config) {
        configure(config);
    }

    @Deactivate
    void deactivate() {
        ServiceRegistration<SelectorFrontCore> h = health;
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
        ServiceRegistration<SelectorCommands> c = command;
        command = null;
        if (c != null) {
            try {
                c.unregister();
            } catch (IllegalStateException alreadyGone) {
                LOG.debug("Selector command already unregistered", alreadyGone);
            }
        }
        ServiceRegistration<SelectorService> r = registration;
        registration = null;
        if (r != null) {
            try {
                r.unregister(); // the framework ungets every view: each closes its channels
            } catch (IllegalStateException alreadyGone) {
                LOG.debug("Selector service already unregistered", alreadyGone);
            }
        }
        for (BundleSelectorView view : views) {
            view.release();
        }
        views.clear();
    }

    @Reference(
            name = "engine",
            service = SelectorEngine.class,
            cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindEngine",
            updated = "updatedEngine")
    void bindEngine(ServiceReference<SelectorEngine> reference, SelectorEngine engine) {
        synchronized (enginesLock) {
            core.swapTo(engines.add(reference, engine));
        }
    }

    /** The engine's service properties changed: its {@code service.ranking} may have, so the order is re-read. */
    void updatedEngine(ServiceReference<SelectorEngine> reference, SelectorEngine engine) {
        synchronized (enginesLock) {
            core.swapTo(engines.update(reference, engine));
        }
    }

    void unbindEngine(ServiceReference<SelectorEngine> reference, SelectorEngine engine) {
        synchronized (enginesLock) {
            core.swapTo(engines.remove(reference));
        }
    }

    private void configure(SelectorFrontConfig config) {
        ConfigCheck check = new ConfigCheck(PID);
        long max = check.inRange("max.registrations.per.bundle", config.max_registrations_per_bundle(), 1, 10_000_000);
        if (!check.passed()) {
            LOG.error(check.rejection());
            return;
        }
        maxRegistrationsPerBundle = (int) max;
    }

    private BundleSelectorView openView(String consumer) {
        BundleSelectorView view = new BundleSelectorView(core, consumer, () -> maxRegistrationsPerBundle);
        views.add(view);
        return view;
    }

    private void closeView(BundleSelectorView view) {
        views.remove(view);
        view.release();
    }
}
