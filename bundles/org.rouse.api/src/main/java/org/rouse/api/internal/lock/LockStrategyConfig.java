package org.rouse.api.internal.lock;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * Writes lock strategy choices into the lock front's configuration ({@value LockFrontCore#PID}) through
 * ConfigurationAdmin, as {@code config:edit} would: the change persists (FileInstall or Karaf writes it back to
 * {@code <pid>.cfg} when the configuration came from one) and reaches the front through DS like any other update.
 *
 * <p>Kept apart from {@link LockCommands} because it is the only class that needs {@code org.osgi.service.cm}, an
 * optional import: without ConfigAdmin this class fails to load and the command says so.
 */
final class LockStrategyConfig {

    /*
     * Implementation notes.
     *
     * Sources. OSGi Compendium 104 (Configuration Admin): getConfiguration(pid, null) returns the existing
     * configuration whatever bundle it is bound to, or a new unbound one that binds to the first bundle it is
     * delivered to (here SCR for the lock front); update(properties) replaces the properties whole and is delivered
     * asynchronously.
     *
     * Invariants. Properties other than the one changed are kept as they are (FileInstall's felix.fileinstall.filename
     * among them, which is how the change is written back to its file).
     */

    private final BundleContext context;

    LockStrategyConfig(BundleContext context) {
        this.context = context;
    }

    /** The configured default strategy, or null when the configuration does not set it. */
    String configuredDefault() throws IOException {
        Dictionary<String, Object> properties = configuration().getProperties();
        Object value = properties == null ? null : properties.get(StrategyPolicy.STRATEGY);
        return value == null ? null : value.toString();
    }

    /** The configured {@code strategy.patterns}, in order; empty when unset. */
    List<String> configuredPatterns() throws IOException {
        Dictionary<String, Object> properties = configuration().getProperties();
        return patterns(properties == null ? null : properties.get(StrategyPolicy.PATTERNS));
    }

    /** Sets the default strategy; returns the value it replaces (null: unset). */
    String setDefault(String strategy) throws IOException {
        Configuration configuration = configuration();
        Dictionary<String, Object> properties = copy(configuration.getProperties());
        Object old = properties.put(StrategyPolicy.STRATEGY, strategy);
        configuration.update(properties);
        return old == null ? null : old.toString();
    }

    /**
     * Puts {@code glob=strategy} first in {@code strategy.patterns}, replacing any entry for the same glob; returns the
     * strategy that entry named, or null.
     */
    String setPattern(String glob, String strategy) throws IOException {
        Configuration configuration = configuration();
        Dictionary<String, Object> properties = copy(configuration.getProperties());
        List<String> patterns = patterns(properties.get(StrategyPolicy.PATTERNS));
        String old = null;
        List<String> next = new ArrayList<>();
        next.add(glob + "=" + strategy);
        for (String entry : patterns) {
            int eq = entry.lastIndexOf('=');
            if (eq >= 0 && entry.substring(0, eq).trim().equals(glob)) {
                old = entry.substring(eq + 1).trim();
            } else {
                next.add(entry);
            }
        }
        properties.put(StrategyPolicy.PATTERNS, next.toArray(new String[0]));
        configuration.update(properties);
        return old;
    }

    private Configuration configuration() throws IOException {
        ServiceReference<ConfigurationAdmin> reference = context.getServiceReference(ConfigurationAdmin.class);
        ConfigurationAdmin admin = reference == null ? null : context.getService(reference);
        if (admin == null) {
            throw new IllegalStateException(
                    "no ConfigurationAdmin service is running: cannot change " + LockFrontCore.PID);
        }
        try {
            return admin.getConfiguration(LockFrontCore.PID, null);
        } finally {
            context.ungetService(reference);
        }
    }

    private static Dictionary<String, Object> copy(Dictionary<String, Object> properties) {
        Hashtable<String, Object> copy = new Hashtable<>();
        if (properties != null) {
            for (var keys = properties.keys(); keys.hasMoreElements(); ) {
                String key = keys.nextElement();
                copy.put(key, properties.get(key));
            }
        }
        return copy;
    }

    /** A String, String[] or collection of strings (as .cfg files and config:edit store them) as a list. */
    private static List<String> patterns(Object value) {
        List<String> all = new ArrayList<>();
        if (value instanceof String[] array) {
            for (String s : array) {
                addTrimmed(all, s);
            }
        } else if (value instanceof Collection<?> collection) {
            for (Object o : collection) {
                addTrimmed(all, String.valueOf(o));
            }
        } else if (value != null) {
            addTrimmed(all, value.toString()); // one entry, as DS reads a single string for a String[] property
        }
        return all;
    }

    private static void addTrimmed(List<String> all, String s) {
        if (s != null && !s.trim().isEmpty()) {
            all.add(s.trim());
        }
    }
}
