package org.rouse.api.internal;

import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * Registers a plain object as Gogo shell commands in the {@code rouse} scope. Gogo finds commands by these service
 * properties alone, so the API bundle needs no Gogo import and works where no shell is installed.
 */
public final class GogoCommands {

    /** The shell scope of every Rouse command ({@code rouse:timers}, {@code rouse:locks}, ...). */
    public static final String SCOPE = "rouse";

    private GogoCommands() {}

    /** Registers {@code commands}, whose public methods named in {@code functions} become shell commands. */
    public static <T> ServiceRegistration<T> register(
            BundleContext context, Class<T> type, T commands, String... functions) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("osgi.command.scope", SCOPE);
        properties.put("osgi.command.function", functions);
        return context.registerService(type, commands, properties);
    }
}
