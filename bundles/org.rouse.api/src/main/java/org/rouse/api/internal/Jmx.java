package org.rouse.api.internal;

import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers a front's MXBean in the platform MBean server (so JConsole, VisualVM, {@code jcmd} and Karaf's JMX see it)
 * and unregisters it again.
 *
 * <pre>{@code
 * Jmx.Registration bean = Jmx.register("org.rouse:type=Timer", new TimerMXBeanImpl(core));
 * ...
 * bean.unregister();
 * }</pre>
 *
 * <p>Registration never fails the caller: a name already taken (a second framework in the same JVM runs Rouse) or a
 * refused bean is logged and the returned registration does nothing.
 */
public final class Jmx {

    private static final Logger LOG = LoggerFactory.getLogger(Jmx.class);

    private Jmx() {}

    /** A registered bean; {@link #unregister()} removes it once. */
    public interface Registration {
        /** Removes the bean from the platform MBean server; idempotent. */
        void unregister();
    }

    /** The object name of every Rouse bean: {@code org.rouse:type=<type>}. */
    public static ObjectName name(String type) {
        try {
            return new ObjectName("org.rouse", "type", type);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("bad MBean type " + type, e);
        }
    }

    /** Registers {@code bean} (an MXBean) under {@code org.rouse:type=<type>} in the platform MBean server. */
    public static Registration register(String type, Object bean) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = name(type);
        try {
            server.registerMBean(bean, name);
        } catch (InstanceAlreadyExistsException taken) {
            LOG.warn("MBean {} is already registered (another Rouse in this JVM?); this one is not", name);
            return () -> {};
        } catch (JMException e) {
            LOG.warn("Could not register MBean {}", name, e);
            return () -> {};
        }
        return new Registration() {
            /** Set by the first unregister; guarded by this. */
            private boolean done;

            @Override
            public synchronized void unregister() {
                if (done) {
                    return;
                }
                done = true;
                try {
                    server.unregisterMBean(name);
                } catch (InstanceNotFoundException gone) {
                    LOG.debug("MBean {} was already unregistered", name, gone);
                } catch (JMException e) {
                    LOG.warn("Could not unregister MBean {}", name, e);
                }
            }
        };
    }
}
