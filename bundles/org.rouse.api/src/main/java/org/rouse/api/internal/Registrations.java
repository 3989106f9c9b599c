package org.rouse.api.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import org.osgi.framework.ServiceRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a DS component registered by hand (its service, shell commands, MXBean, console source, health-check target),
 * undone in the reverse order when it deactivates. A service already gone (its bundle's context was invalidated first)
 * is skipped with a debug line, and the rest are still undone.
 *
 * <pre>{@code
 * registrations.add(context.registerService(Foo.class, foo, null));
 * registrations.add(Jmx.register("Foo", bean)::unregister);
 * ...
 * registrations.unregisterAll(); // in @Deactivate
 * }</pre>
 */
public final class Registrations {

    private static final Logger LOG = LoggerFactory.getLogger(Registrations.class);

    /** Undo actions, latest first; used by SCR's activate and deactivate calls only, which DS serializes. */
    private final Deque<Runnable> undo = new ArrayDeque<>();

    /** Remembers {@code registration} to be unregistered; returns it. */
    public <T> ServiceRegistration<T> add(ServiceRegistration<T> registration) {
        undo.push(registration::unregister);
        return registration;
    }

    /** Remembers an undo action that is not a service registration, such as an MXBean's. */
    public void add(Runnable unregister) {
        undo.push(unregister);
    }

    /** Undoes everything added, the latest first, and forgets it; a second call does nothing. */
    public void unregisterAll() {
        while (!undo.isEmpty()) {
            try {
                undo.pop().run();
            } catch (IllegalStateException alreadyGone) {
                LOG.debug("A registration was already gone", alreadyGone);
            }
        }
    }
}
