package org.rouse.api.internal;

import java.util.Hashtable;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;

/**
 * Registers a command object of a front, as Gogo shell commands in the {@code rouse} scope or, under Apache Karaf's
 * shell, as the plain service the Karaf Action commands of {@code org.rouse.api.internal.karaf} delegate to.
 *
 * <p>Gogo finds function commands by service properties alone ({@code osgi.command.scope},
 * {@code osgi.command.function}), so the API bundle needs no Gogo import and works where no shell is installed.
 * Karaf's shell registers such services as commands too, next to the Action commands it creates from the bundle's
 * {@code Karaf-Commands} header; two commands of the same {@code scope:name} would then both exist. Karaf's registry
 * keeps a list per name, and {@code help} and completion take the first registered, while its command processor
 * keeps one command per name, runs the last one added and forgets the name when either is removed. So when the
 * bundle is wired to Karaf's Action API the object is registered without the Gogo properties: Karaf users get the
 * Actions (with help, argument descriptions and completion) and nothing else, while Felix Gogo keeps the function
 * commands and their {@code @Descriptor} help.
 *
 * <pre>{@code
 * ServiceRegistration<TimerCommands> r =
 *         GogoCommands.register(context, TimerCommands.class, new TimerCommands(core), "timers", "late", "running");
 * }</pre>
 */
public final class GogoCommands {

    /** The shell scope of every Rouse command ({@code rouse:timers}, {@code rouse:locks}, ...). */
    public static final String SCOPE = "rouse";

    /** The package of Karaf's Action API; the bundle imports it optionally. */
    static final String KARAF_ACTION_PACKAGE = "org.apache.karaf.shell.api.action";

    private GogoCommands() {}

    /**
     * Registers {@code commands} under {@code type}: with the Gogo properties naming {@code functions} (its public
     * methods of those names become shell commands), or without them when {@link #karafShell(Bundle)} holds for the
     * registering bundle.
     */
    public static <T> ServiceRegistration<T> register(
            BundleContext context, Class<T> type, T commands, String... functions) {
        Hashtable<String, Object> properties = new Hashtable<>();
        if (!karafShell(context.getBundle())) {
            properties.put("osgi.command.scope", SCOPE);
            properties.put("osgi.command.function", functions);
        }
        return context.registerService(type, commands, properties);
    }

    /**
     * Whether {@code bundle} is wired to Karaf's Action API: then Karaf's shell (which exports that package and
     * reads the {@code Karaf-Commands} header) registers the bundle's Action commands. The import is optional, so in
     * a framework without Karaf's shell the bundle resolves unwired and this is false.
     */
    public static boolean karafShell(Bundle bundle) {
        BundleWiring wiring = bundle.adapt(BundleWiring.class);
        if (wiring == null) {
            return false;
        }
        for (BundleWire wire : wiring.getRequiredWires(PackageNamespace.PACKAGE_NAMESPACE)) {
            if (KARAF_ACTION_PACKAGE.equals(
                    wire.getCapability().getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE))) {
                return true;
            }
        }
        return false;
    }
}
