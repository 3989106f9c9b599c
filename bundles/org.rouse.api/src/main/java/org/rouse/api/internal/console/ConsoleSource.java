package org.rouse.api.internal.console;

import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * What one front shows on the console page: each front registers one as a service of the API bundle while it is
 * active, and {@link RouseConsole} reads every registered source once a second.
 *
 * <pre>{@code
 * context.registerService(ConsoleSource.class, reading -> reading.engine(core.engineName())
 *         .counter("selectCycles", cycles()).gauge("poolThreads", threads()), null);
 * }</pre>
 */
@FunctionalInterface
public interface ConsoleSource {

    /** The service property naming the service a source describes: {@code timer}, {@code selector} or {@code lock}. */
    String SERVICE = "rouse.console.service";

    /** Fills {@code reading} with this front's figures now; called from the sampling thread, never concurrently. */
    void read(ConsoleReading reading);

    /** Registers {@code source} for {@code service} ({@code timer}, {@code selector}, {@code lock}). */
    static ServiceRegistration<ConsoleSource> register(BundleContext context, String service, ConsoleSource source) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(SERVICE, service);
        return context.registerService(ConsoleSource.class, source, properties);
    }
}
