package org.rouse.runtime;

import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.SynchronousBundleListener;

/**
 * Counts framework, bundle and service events so that the launcher can wait for "something changed" instead of
 * re-reading states in a tight loop.
 *
 * <p>Implementation notes: a version number guarded by this object's monitor; every event increments it and wakes
 * all waiters. A waiter remembers the version it last evaluated and waits until it moves on or its timeout ends. Some
 * state changes raise no event (a component without a service becoming ACTIVE), so callers pass a short timeout and
 * re-evaluate anyway.
 */
final class StateChanges implements FrameworkListener, SynchronousBundleListener, ServiceListener {

    // written by event threads under this monitor, read by the launcher thread under this monitor
    private long version;

    synchronized long version() {
        return version;
    }

    /** Waits until an event arrived after {@code seen} was read, or the timeout passed. */
    synchronized void awaitChangeAfter(long seen, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        long remaining = timeoutNanos;
        while (version == seen && remaining > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
            remaining = deadline - System.nanoTime();
        }
    }

    private synchronized void changed() {
        version++;
        notifyAll();
    }

    @Override
    public void frameworkEvent(FrameworkEvent event) {
        if (event.getType() == FrameworkEvent.ERROR) {
            System.err.println("[rouse] framework error from " + event.getBundle() + ": " + event.getThrowable());
        }
        changed();
    }

    @Override
    public void bundleChanged(BundleEvent event) {
        changed();
    }

    @Override
    public void serviceChanged(ServiceEvent event) {
        changed();
    }
}
