package org.rouse.api.internal.console;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the {@code Rouse} Web Console page ({@link RouseConsolePlugin}, label {@value RouseConsolePlugin#LABEL})
 * and, while the page is viewed, samples every front's {@link ConsoleSource} once a second into the
 * {@link ConsoleHistory} it shows. The sampling thread starts on a request for the page or its data and ends a minute
 * ({@link OnDemandSampler#IDLE_NANOS}) after the last one; a later request starts it again with an empty history.
 *
 * <p>The API bundle imports {@code javax.servlet} optionally. When the import is wired (a servlet API bundle was
 * resolved before the API bundle), this component registers the page and samples; when it is not, it logs one DEBUG
 * line and does nothing else, and the rest of Rouse runs as usual. Either way the component is ACTIVE: it never names
 * a servlet type itself, so SCR can load and activate it without the package. A servlet API installed later is wired
 * only when the API bundle is refreshed (Karaf's feature installer does that by itself).
 *
 * <p>Implementation notes. <b>Costs:</b> no thread while nobody views the page; while someone does (and for a minute
 * after), one daemon thread wakes once a second and reads the fronts' counters (the timer's per-bundle lateness
 * histograms are merged once per second, as a JMX read does). Readings of sources that throw are skipped for that
 * second and logged at DEBUG.
 */
@Component(
        immediate = true,
        service = {},
        // takes no configuration, so it needs no Metatype description
        configurationPolicy = ConfigurationPolicy.IGNORE)
public final class RouseConsole {

    private static final Logger LOG = LoggerFactory.getLogger(RouseConsole.class);

    private final ConsoleHistory history = new ConsoleHistory();
    /** By service name; written by DS bind/unbind threads, read by the sampling thread. */
    private final Map<String, ConsoleSource> sources = new ConcurrentSkipListMap<>();

    /** Written in activate and deactivate, which DS serializes; request threads use it through the plugin. */
    private OnDemandSampler sampler;
    /** The plugin's registration; written in activate and deactivate, which DS serializes. */
    private ServiceRegistration<?> plugin;

    @Reference(
            service = ConsoleSource.class,
            cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC)
    void bindSource(ConsoleSource source, Map<String, Object> properties) {
        sources.put(String.valueOf(properties.get(ConsoleSource.SERVICE)), source);
    }

    void unbindSource(ConsoleSource source, Map<String, Object> properties) {
        sources.remove(String.valueOf(properties.get(ConsoleSource.SERVICE)), source);
    }

    @Activate
    void activate(BundleContext context) {
        if (!servletApiWired()) {
            LOG.debug("javax.servlet is not wired to the Rouse API bundle: no Web Console page");
            return;
        }
        sampler = new OnDemandSampler(history::clear, this::sample);
        plugin = RouseConsolePlugin.register(context, history, sampler);
    }

    @Deactivate
    void deactivate() {
        if (plugin != null) {
            plugin.unregister();
            plugin = null;
        }
        if (sampler != null) {
            sampler.close();
            sampler = null;
        }
    }

    /** One reading of every source; runs on the sampling thread. */
    void sample() {
        Map<String, ConsoleReading> readings = new TreeMap<>();
        sources.forEach((service, source) -> {
            ConsoleReading reading = new ConsoleReading();
            try {
                source.read(reading);
                readings.put(service, reading);
            } catch (RuntimeException e) {
                LOG.debug("console source {} failed this second", service, e);
            }
        });
        history.add(System.nanoTime(), System.currentTimeMillis(), readings);
    }

    /** Whether this bundle's class loader reaches the servlet API (the optional import is wired). */
    static boolean servletApiWired() {
        try {
            Class.forName("javax.servlet.http.HttpServlet", false, RouseConsole.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
